package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.RelayCpException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {
  @Test
  void evenSpreadsOverEachDatanodeOrWithReplicasOverAll() {
    assertThat(Placement.even(4, 1).groups()).hasSize(4)
        .allSatisfy(group -> assertThat(group.share()).isEqualTo(0.25));
    assertThat(Placement.even(3, 3).groups()).containsExactly(
        new Placement.Group(List.of(0, 1, 2), 1));
  }

  @Test
  void whatIfNamesEvenOneOrASizePerDatanode() {
    assertThat(Placement.parse("even", 3, 1)).isEqualTo(Placement.even(3, 1));
    assertThat(Placement.parse("one", 3, 1).groups()).containsExactly(
        new Placement.Group(List.of(0), 1));
    Placement sizes = Placement.parse("3GiB, 1GiB ,0", 3, 1);
    assertThat(sizes.groups()).extracting(Placement.Group::share)
        .containsExactly(0.75, 0.25, 0.0);
    assertThat(sizes.highestHolder()).isEqualTo(2);
  }

  @Test
  void whatIfNamesSetsOfHoldersNumberedFromOne() {
    Placement groups = Placement.parse("1+2=3GiB, 3=1GiB,2=0B", 3, 3);

    assertThat(groups.groups()).containsExactly(
        new Placement.Group(List.of(0, 1), 0.75), new Placement.Group(List.of(2), 0.25));
    assertThat(groups.highestHolder()).isEqualTo(2);
  }

  @Test
  void setsOfHoldersOutsideTheSiteOrWithoutBytesSayHowToWriteThem() {
    assertThatThrownBy(() -> Placement.parse("1+4=1GiB", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("'4' is not a datanode of the source's 3");
    assertThatThrownBy(() -> Placement.parse("0=1GiB", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("number them from 1");
    assertThatThrownBy(() -> Placement.parse("1=1GiB,2GiB", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("'2gib' has no holders");
    assertThatThrownBy(() -> Placement.parse("1=0B,2=0B", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("puts no bytes anywhere");
  }

  @Test
  void aWhatIfPlacementThatDoesNotFitTheSiteSaysHowToWriteIt() {
    assertThatThrownBy(() -> Placement.parse("1GiB,1GiB", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("names 2 datanode(s) but the source has 3");
    assertThatThrownBy(() -> Placement.parse("lots,0,0", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("'lots' is not a size");
    assertThatThrownBy(() -> Placement.parse("0,0,0", 3, 1))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("puts no bytes anywhere");
  }

  @Test
  void blockLocationsBecomeHolderGroupsNumberedAsTheyAppear() {
    Map<List<String>, Long> bytes = new LinkedHashMap<>();
    bytes.put(List.of("10.0.0.2"), 300L);
    bytes.put(List.of("10.0.0.1", "10.0.0.2"), 100L);
    bytes.put(List.of(), 50L);

    Placement placement = Placement.ofHolders(bytes, 3).orElseThrow();

    assertThat(placement.groups()).containsExactly(
        new Placement.Group(List.of(0), 0.75), new Placement.Group(List.of(1, 0), 0.25));
    assertThat(Placement.ofHolders(bytes, 1)).isEmpty();
    assertThat(Placement.ofHolders(Map.of(), 3)).isEmpty();
  }

  @Test
  void aSiteRefusesAPlacementOnADatanodeItLacks() {
    DataRate rate = DataRate.ofMebibytesPerSecond(1);
    assertThatThrownBy(() -> new Site(2, rate, rate, 1, Placement.onOne(3, 3)))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("datanode 3 of a site with 2");
  }
}
