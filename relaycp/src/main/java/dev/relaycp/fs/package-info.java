/**
 * Adapters over Hadoop's FileSystem: opening clusters, reading byte ranges, writing chunks as
 * files or multipart-upload parts, checksums and attributes, counting datanodes. Every Hadoop failure leaves this
 * package as a {@link dev.relaycp.error.RelayCpException} with a code.
 */
package dev.relaycp.fs;
