/**
 * The one vocabulary of failures: every error relaycp reports carries an {@link
 * dev.relaycp.error.ErrorCode} with its category and whether a retry can help. The CLI maps
 * codes to exit codes in one place.
 */
package dev.relaycp.error;
