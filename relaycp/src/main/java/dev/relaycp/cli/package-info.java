/**
 * The command line: picocli commands that parse options, call the packages below, and print.
 * The only package that writes to the terminal.
 */
package dev.relaycp.cli;
