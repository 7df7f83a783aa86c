package dev.relaycp.plan;

/** Builders of model inputs for tests, in MiB and MiB/s so that answers can be worked by hand. */
final class Inputs {
  private Inputs() {}

  static DataRate mebibytesPerSecond(double value) {
    return DataRate.ofMebibytesPerSecond(value);
  }

  static Site site(int nodes, double externalMebibytesPerSecond, double internalMebibytesPerSecond) {
    return Site.of(
        nodes, mebibytesPerSecond(externalMebibytesPerSecond), mebibytesPerSecond(internalMebibytesPerSecond));
  }

  /** A VM at $3.60 an hour (a tenth of a cent a second), billed per second with a 60 s minimum. */
  static MachineType machine(double externalMebibytesPerSecond, double internalMebibytesPerSecond, double bootSeconds) {
    return new MachineType(
        "test", "here", "test.vm", 3.6,
        mebibytesPerSecond(externalMebibytesPerSecond),
        mebibytesPerSecond(internalMebibytesPerSecond),
        bootSeconds, 1, 60, "test figure");
  }

  static Workload files(long count, double mebibytesEach) {
    return Workload.of(new Workload.FileGroup(count, DataSize.ofMebibytes(mebibytesEach)));
  }

  static PlanInput input(Workload workload, Site source, Site destination, MachineType machine) {
    return new PlanInput(
        workload,
        source,
        destination,
        machine,
        new Pricing(0.02, 0),
        new RelaycpSettings(DataSize.ofMebibytes(100), 1, CopyOverheads.NONE),
        new DistcpSettings(20, 1, 0, 0, 0, 0, DataSize.ofMebibytes(128)),
        ThesisSettings.DEFAULT);
  }

  static PlanInput withRelaycp(PlanInput input, RelaycpSettings settings) {
    return new PlanInput(
        input.workload(), input.source(), input.destination(), input.machine(), input.pricing(),
        settings, input.distcp(), input.thesis());
  }

  static PlanInput withDistcp(PlanInput input, DistcpSettings settings) {
    return new PlanInput(
        input.workload(), input.source(), input.destination(), input.machine(), input.pricing(),
        input.relaycp(), settings, input.thesis());
  }

  static PlanInput withPricing(PlanInput input, Pricing pricing) {
    return new PlanInput(
        input.workload(), input.source(), input.destination(), input.machine(), pricing,
        input.relaycp(), input.distcp(), input.thesis());
  }
}
