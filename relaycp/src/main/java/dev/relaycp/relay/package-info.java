/**
 * The relay daemon and its wire protocol: a Netty server that authenticates every connection
 * with the transfer's secret, reads block-aligned byte ranges of source files and sends them
 * on, and writes what it receives as a file or one part of a destination multipart upload.
 * Also the client side of the protocol, which the driver and reader relays use.
 */
package dev.relaycp.relay;
