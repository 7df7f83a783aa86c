package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class DatanodeAddressTest {
  @Test
  void parsesWhatItWrites() {
    for (String text : new String[] {"dn1.example.com:9866", "10.0.2.11:1", "[fd00::2]:65535"}) {
      assertThat(DatanodeAddress.parse(text).toString()).isEqualTo(text);
    }
    assertThat(DatanodeAddress.parse("[fd00::2]:9866"))
        .isEqualTo(new DatanodeAddress("[fd00::2]", 9866));
  }

  @Test
  void givesAnUnresolvedSocketAddressSoThatHdfsComparesNames() {
    InetSocketAddress address = DatanodeAddress.parse("dn1.example.com:9866").unresolved();

    assertThat(address.isUnresolved()).isTrue();
    assertThat(address.getHostString()).isEqualTo("dn1.example.com");
    assertThat(address.getPort()).isEqualTo(9866);
  }

  @Test
  void refusesTextThatIsNotHostAndPortNamingIt() {
    for (String text : new String[] {"10.0.2.11", ":9866", "10.0.2.11:", "dn:98a6", "dn:123456"}) {
      assertThatThrownBy(() -> DatanodeAddress.parse(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a datanode address must be host:port, got '" + text + "'");
    }
    assertThatThrownBy(() -> DatanodeAddress.parse("dn:0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("transfer port must be 1 to 65535, got 0");
    assertThatThrownBy(() -> new DatanodeAddress(" ", 9866))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("host must not be blank");
  }
}
