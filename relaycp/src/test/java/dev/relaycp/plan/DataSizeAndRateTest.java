package dev.relaycp.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataSizeAndRateTest {
  @Test
  void sizesTakeDecimalAndBinaryUnits() {
    assertThat(DataSize.parse("8GiB").bytes()).isEqualTo(8L << 30);
    assertThat(DataSize.parse("8GB").bytes()).isEqualTo(8_000_000_000L);
    assertThat(DataSize.parse("1.5 MiB").bytes()).isEqualTo(1_572_864L);
    assertThat(DataSize.parse("500MB").bytes()).isEqualTo(500_000_000L);
    assertThat(DataSize.parse("4096").bytes()).isEqualTo(4096L);
    assertThat(DataSize.parse("2TiB").bytes()).isEqualTo(2L << 40);
    assertThat(DataSize.parse("8GiB").mebibytes()).isEqualTo(8192);
    assertThat(DataSize.parse("8GiB")).hasToString("8.00 GiB");
  }

  @Test
  void ratesTakeTheSameUnitsPerSecondAndBits() {
    assertThat(DataRate.parse("90MiB/s").bytesPerSecond()).isEqualTo(90.0 * (1 << 20));
    assertThat(DataRate.parse("100MB/s").bytesPerSecond()).isEqualTo(100e6);
    assertThat(DataRate.parse("800Mbps").bytesPerSecond()).isEqualTo(100e6);
    assertThat(DataRate.parse("1Gbps").bytesPerSecond()).isEqualTo(125e6);
    assertThat(DataRate.parse("15 MiB/s").mebibytesPerSecond()).isCloseTo(15, within(1e-12));
  }

  @Test
  void badValuesNameTheFix() {
    assertThatThrownBy(() -> DataRate.parse("0MiB/s"))
        .isInstanceOf(RelayCpException.class)
        .hasMessage("throughput '0MiB/s' is not positive; give a rate above 0, e.g. 15MiB/s")
        .extracting(e -> ((RelayCpException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThatThrownBy(() -> DataRate.parse("-3MB/s")).hasMessageStartingWith("throughput '-3MB/s' is not positive");
    assertThatThrownBy(() -> DataRate.ofBytesPerSecond(-1)).hasMessageContaining("is not positive");
    assertThatThrownBy(() -> DataRate.parse("90MiB")).hasMessageContaining("has no '/s'");
    assertThatThrownBy(() -> DataSize.parse("8 gallons")).hasMessageStartingWith("unknown unit 'gallons'");
    assertThatThrownBy(() -> DataSize.parse("lots")).hasMessageStartingWith("cannot read data size 'lots'");
    assertThatThrownBy(() -> DataSize.ofBytes(-1)).hasMessageContaining("is negative");
  }

  @Test
  void equalFilesShareTheBytesExactly() {
    Workload workload = Workload.equalFiles(DataSize.ofBytes(10), 3);
    assertThat(workload.totalSize().bytes()).isEqualTo(10);
    assertThat(workload.fileCount()).isEqualTo(3);
    assertThat(workload.largestFile().bytes()).isEqualTo(4);
    assertThat(Workload.ofSizes(List.of(DataSize.ofBytes(5), DataSize.ofBytes(5), DataSize.ofBytes(1))).groups())
        .containsExactly(
            new Workload.FileGroup(2, DataSize.ofBytes(5)), new Workload.FileGroup(1, DataSize.ofBytes(1)));
  }
}
