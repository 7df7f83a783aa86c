/**
 * Embedded clusters (MiniDFSCluster, MiniYARNCluster) and the demo's dataset, for relaycp's
 * tests and its demo. Nothing here is on a relay's or a user's class path.
 */
package dev.relaycp.testkit;
