/**
 * The planner: predicts the seconds and dollars of a copy for each number of relay pairs
 * {@code p}, with DistCp and a one-node copy beside it, and picks {@code p}.
 *
 * <p>The models ({@link dev.relaycp.plan.ThesisModel}, {@link dev.relaycp.plan.RelaycpModel},
 * {@link dev.relaycp.plan.DistcpModel}) are pure functions of records. Around them: the inputs of
 * a live copy from transfer's survey of the clusters ({@link dev.relaycp.plan.LiveInputs},
 * {@link dev.relaycp.plan.AutoPairs}), the spawned relays' machine from the relay catalog and
 * the throughput history ({@link dev.relaycp.plan.MachineChoice}), the samples a copy or probe
 * measured ({@link dev.relaycp.plan.ObservedRates}), and a plan as a table or JSON ({@link
 * dev.relaycp.plan.PlanReport}). Its only input/output is reading the catalog and reading and
 * writing the history. Nothing here prints: the CLI prints what it returns, and hands {@link
 * dev.relaycp.plan.ObservedRates#record} the writer a failed history write is reported on.
 */
package dev.relaycp.plan;
