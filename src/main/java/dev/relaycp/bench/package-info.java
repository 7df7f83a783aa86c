/**
 * Harnesses that run relaycp beside DistCp on the same data: embedded clusters, the demo's
 * dataset, and the relay-hop benchmark. Results are returned, never printed here.
 */
package dev.relaycp.bench;
