package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The exec backend under the contract every backend passes: each host is a shell that
 * prints a loopback address and stays up until released.
 */
class CommandHostSpawnerContractTest extends HostSpawnerContract {
  @Override
  protected HostSpawner newSpawner(SpawnContext context) throws Exception {
    Path pids = Files.createDirectories(contractDirectory.resolve("pids"));
    String spawn = "echo $$ > " + pids + "/{site}-{slot}; echo 127.0.0.1:$((7000 + {slot}));"
        + " exec sleep 600";
    return CommandHostSpawner.of(spawn, Optional.empty(), context, Duration.ofSeconds(30));
  }

  private Optional<ProcessHandle> shell(SpawnedHost host) throws Exception {
    Path pid = contractDirectory.resolve("pids")
        .resolve(host.slot().site() + "-" + host.slot().slot());
    return ProcessHandle.of(Long.parseLong(Files.readString(pid).strip()));
  }

  @Override
  protected void assertRunning(SpawnedHost host) throws Exception {
    assertThat(shell(host).map(ProcessHandle::isAlive)).contains(true);
  }

  @Override
  protected void assertReleased(SpawnedHost host) throws Exception {
    assertThat(shell(host).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }
}
