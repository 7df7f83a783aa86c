/**
 * The demo and the benchmarks: relaycp beside DistCp on embedded clusters, and the relay-hop
 * benchmark. Results are returned to the commands here, which print them.
 */
package dev.relaycp.bench;
