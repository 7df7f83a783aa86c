/**
 * The planner: predicts the seconds and dollars of a copy for each number of relay pairs
 * {@code p}, with DistCp and a one-node copy beside it, and picks {@code p}.
 *
 * <p>The models ({@link dev.relaycp.plan.ThesisModel}, {@link dev.relaycp.plan.RelaycpModel},
 * {@link dev.relaycp.plan.DistcpModel}) are pure functions of records. The only input/output in
 * this package is reading the relay catalog ({@link dev.relaycp.plan.RelayCatalog#load}) and
 * reading and writing the throughput history ({@link dev.relaycp.plan.ThroughputHistoryFile}).
 * Nothing here prints; the CLI renders a {@link dev.relaycp.plan.Plan}.
 */
package dev.relaycp.plan;
