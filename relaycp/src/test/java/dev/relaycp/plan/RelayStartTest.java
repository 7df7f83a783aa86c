package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.RelayCpException;
import org.junit.jupiter.api.Test;

class RelayStartTest {
  @Test
  void relaysThatAlreadyRunStartAtOnceWhateverTheSpawnedRelaysDo() {
    RelayStart.Phase phase = RelayStart.NONE.phase(6, 4, SharedCores.of(2, 10, 5));
    assertThat(phase.seconds()).isZero();
    assertThat(phase.spawnedStartCpuDone()).isZero();
  }

  @Test
  void onItsOwnCoresARelayStartsInItsLaunchAndItsCpu() {
    RelayStart.Phase phase = new RelayStart(1.5, 2).phase(6, 4, SharedCores.NONE);
    assertThat(phase.seconds()).isCloseTo(3.5, within(1e-9));
    // A spawned VM starts its relay on its own cores, within its boot.
    assertThat(phase.spawnedStartCpuDone()).isZero();
  }

  @Test
  void onSharedCoresTheRelaysOfBothSitesShareThem() {
    // Six relays of 2 CPU-s on two cores: 6 s after a launch of 1 s. Two relays on two cores
    // each have a core: 2 s.
    assertThat(new RelayStart(1, 2).phase(6, 0, SharedCores.of(2, 0, 0)).seconds())
        .isCloseTo(7, within(1e-9));
    assertThat(new RelayStart(1, 2).phase(2, 0, SharedCores.of(2, 0, 0)).seconds())
        .isCloseTo(3, within(1e-9));
  }

  @Test
  void everySpawnedRelayStartingBesideThemDelaysTheDatanodeRelays() {
    // Four spawned JVMs that need 5 CPU-s to serve start at the request: alone during the
    // launch's 1 s, half a core each (0.5 CPU-s done). Then ten JVMs share two cores, 0.2 each:
    // the datanode relays' 2 CPU-s take 10 s more, 11 s in all, the spawned ones at 2.5.
    RelayStart.Phase phase = new RelayStart(1, 2).phase(6, 4, SharedCores.of(2, 10, 5));
    assertThat(phase.seconds()).isCloseTo(11, within(1e-9));
    assertThat(phase.spawnedStartCpuDone()).isCloseTo(2.5, within(1e-9));
  }

  @Test
  void spawnedRelaysThatStartSoonerLeaveTheCoresToTheDatanodeRelays() {
    // Two spawned JVMs of 0.6 CPU-s beside six of 2 on two cores: 0.25 a JVM until the
    // spawned ones are done at 2.4 s, then the six have 1.4 CPU-s left at a third of a core:
    // 4.2 s more, 6.6 s.
    RelayStart.Phase phase = new RelayStart(0, 2).phase(6, 2, SharedCores.of(2, 1, 0.6));
    assertThat(phase.seconds()).isCloseTo(6.6, within(1e-9));
    assertThat(phase.spawnedStartCpuDone()).isCloseTo(0.6, within(1e-9));
  }

  @Test
  void aNegativeOrEndlessStartIsRefusedWithWhatWasWrong() {
    assertThatThrownBy(() -> new RelayStart(-1, 2))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("launch of -1.0 s");
    assertThatThrownBy(() -> new RelayStart(1, Double.POSITIVE_INFINITY))
        .isInstanceOf(RelayCpException.class).hasMessageContaining("start of Infinity CPU");
  }
}
