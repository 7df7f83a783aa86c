package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.TlsIdentityFile;
import dev.relaycp.provision.Uninterrupted;
import dev.relaycp.relay.RelayAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code exec} backend: a user's command starts each relay host, so relaycp can spawn
 * relays anywhere a user can start a process (ssh, Kubernetes, Slurm, the WAN lab).
 *
 * <p>The spawn command runs through {@code /bin/sh -c} with {@code {site}}, {@code {slot}} and
 * {@code {transfer}} replaced, and must print the relay's {@code host:port} on a line of its own
 * (or pass on the relay's own "relaycp relay listening on HOST:PORT"); it may then exit (the relay
 * runs elsewhere) or keep running (the relay is its child, and ends when relaycp ends the
 * command). Its environment adds {@code RELAYCP_SITE}, {@code
 * RELAYCP_SLOT}, {@code RELAYCP_TRANSFER}, {@code RELAYCP_SECRET_FILE} (a file only this user
 * may read; the secret itself is never on a command line or in the environment), {@code
 * RELAYCP_DRIVER_HEARTBEAT} (the file a relay follows with {@code --driver-heartbeat}), {@code
 * RELAYCP_DRIVER_TIMEOUT_SECONDS} and, where the relay connections run TLS, {@code
 * RELAYCP_TLS_IDENTITY_FILE}: the driver's TLS key and certificate, in a file only this user
 * may read and removed when the transfer ends, which a relay takes as {@code
 * --tls-identity-file} instead of making a key of its own (0.25-0.54 CPU-s of its start, in
 * bench/results/lab-2026-12-02-spawned-identity/). The release command, if any, gets the same
 * plus {@code {address}} and {@code {handle}} (the line the spawn command printed); after it
 * runs, a spawn command still running is ended too.
 */
public final class CommandHostSpawner implements HostSpawner {
  private static final Logger LOG = LoggerFactory.getLogger(CommandHostSpawner.class);
  /**
   * A line that is only {@code host:port} (an IPv6 host in brackets), or the line {@code
   * relaycp relay} prints once it listens, so a command may run a relay in the foreground.
   */
  private static final Pattern ADDRESS_LINE = Pattern.compile("^\\s*(?:relaycp relay listening"
      + " on\\s+)?((?:\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9_.-]+):[0-9]{1,5})\\s*$");
  private static final long RELEASE_TIMEOUT_SECONDS = 60;

  private final String spawnCommand;
  private final Optional<String> releaseCommand;
  private final SpawnContext context;
  private final Duration timeout;
  private final Map<SpawnSlot, Process> running = new ConcurrentHashMap<>();
  private final Map<SpawnSlot, Boolean> released = new ConcurrentHashMap<>();
  /** The file holding the driver's TLS identity for the relays; empty without TLS. */
  private final Optional<TlsIdentityFile> tlsIdentityFile;

  private CommandHostSpawner(String spawnCommand, Optional<String> releaseCommand,
      SpawnContext context, Duration timeout, Optional<TlsIdentityFile> tlsIdentityFile) {
    this.spawnCommand = spawnCommand;
    this.releaseCommand = releaseCommand;
    this.context = context;
    this.timeout = timeout;
    this.tlsIdentityFile = tlsIdentityFile;
  }

  /**
   * A backend running {@code spawnCommand} per host (waiting at most {@code timeout} for it to
   * print an address) and {@code releaseCommand}, if present, to stop one.
   */
  public static CommandHostSpawner of(String spawnCommand, Optional<String> releaseCommand,
      SpawnContext context, Duration timeout) {
    requireNonNull(spawnCommand, "spawnCommand is null");
    requireNonNull(releaseCommand, "releaseCommand is null");
    requireNonNull(context, "context is null");
    requireNonNull(timeout, "timeout is null");
    if (spawnCommand.isBlank()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--spawn-command is empty; give a"
          + " command that starts a relay and prints its host:port");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    return new CommandHostSpawner(spawnCommand, releaseCommand.filter(text -> !text.isBlank()),
        context, timeout, context.tlsIdentity().map(
            identity -> TlsIdentityFile.write(identity, ErrorCode.RELAY_START_FAILED)));
  }

  @Override
  public String backend() {
    return "exec";
  }

  @Override
  public SpawnedHost spawn(SpawnSlot slot) {
    requireNonNull(slot, "slot is null");
    Process process = start(substitute(spawnCommand, slot, Map.of()), slot);
    running.put(slot, process);
    CompletableFuture<String> address = new CompletableFuture<>();
    List<String> output = new ArrayList<>();
    Thread reader = new Thread(() -> readOutput(process, slot, address, output),
        "spawn-command-" + slot);
    reader.setDaemon(true);
    reader.start();
    try {
      String line = address.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      SpawnedHost host = new SpawnedHost(slot, RelayAddress.parse(line), line, "");
      LOG.info("exec: {} started a relay at {}", slot, host.address());
      return host;
    } catch (TimeoutException e) {
      end(slot);
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "--spawn-command printed no"
          + " host:port for " + slot + " within " + timeout.toSeconds() + " s; raise"
          + " --spawn-timeout or check the command", e);
    } catch (ExecutionException e) {
      end(slot);
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED, e.getCause().getMessage(),
          e.getCause());
    } catch (InterruptedException e) {
      end(slot);
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted spawning " + slot, e);
    } catch (RelayCpException e) {
      end(slot);
      throw e;
    }
  }

  private void readOutput(Process process, SpawnSlot slot, CompletableFuture<String> address,
      List<String> output) {
    try (BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        Matcher matcher = ADDRESS_LINE.matcher(line);
        if (!address.isDone() && matcher.matches()) {
          address.complete(matcher.group(1));
        } else {
          LOG.info("exec {}: {}", slot, line);
          if (!address.isDone() && output.size() < 20) {
            output.add(line);
          }
        }
      }
    } catch (IOException e) {
      LOG.debug("Reading the spawn command's output for {} failed", slot, e);
    }
    if (!address.isDone()) {
      int exit = waitFor(process);
      address.completeExceptionally(new RelayCpException(ErrorCode.RELAY_START_FAILED,
          "--spawn-command exited with " + exit + " for " + slot + " without printing a"
              + " host:port line" + (output.isEmpty() ? "" : " (it printed: "
              + String.join(" | ", output) + ")")));
    }
  }

  @Override
  public void release(SpawnedHost host) {
    requireNonNull(host, "host is null");
    if (released.putIfAbsent(host.slot(), Boolean.TRUE) != null) {
      return;
    }
    Uninterrupted.run(() -> runRelease(host));
  }

  /** Runs the release command and ends the spawn command's process, waiting for both. */
  private void runRelease(SpawnedHost host) {
    if (releaseCommand.isPresent()) {
      String command = substitute(releaseCommand.get(), host.slot(),
          Map.of("{address}", host.address().toString(), "{handle}", host.handle()));
      try {
        Process process = start(command, host.slot());
        process.getOutputStream().close();
        process.getInputStream().transferTo(OutputStream.nullOutputStream());
        if (!process.waitFor(RELEASE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          LOG.warn("--release-command for {} ({}) did not end within {} s; it was killed",
              host.slot(), host.address(), RELEASE_TIMEOUT_SECONDS);
        } else if (process.exitValue() != 0) {
          LOG.warn("--release-command for {} ({}) exited with {}", host.slot(), host.address(),
              process.exitValue());
        }
      } catch (IOException | RelayCpException e) {
        LOG.warn("Cannot run --release-command for {} ({}): {}", host.slot(), host.address(),
            e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.warn("Interrupted releasing {} ({})", host.slot(), host.address());
      }
    }
    end(host.slot());
    LOG.info("exec: released {} ({})", host.slot(), host.address());
  }

  /** Ends the spawn command of {@code slot} if it still runs (its relay with it). */
  private void end(SpawnSlot slot) {
    Process process = running.remove(slot);
    if (process == null || !process.isAlive()) {
      return;
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      LOG.debug("Closing the spawn command's input failed", e);
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private Process start(String command, SpawnSlot slot) {
    ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    Map<String, String> environment = builder.environment();
    environment.put("RELAYCP_SITE", slot.site());
    environment.put("RELAYCP_SLOT", Integer.toString(slot.slot()));
    environment.put("RELAYCP_TRANSFER", slot.transferId());
    environment.put("RELAYCP_SECRET_FILE", context.secretFile().toString());
    environment.put("RELAYCP_DRIVER_TIMEOUT_SECONDS",
        Long.toString(context.driverTimeout().toSeconds()));
    tlsIdentityFile.ifPresent(
        file -> environment.put("RELAYCP_TLS_IDENTITY_FILE", file.path().toString()));
    String heartbeat = context.heartbeats().get(slot.site());
    if (heartbeat != null) {
      environment.put("RELAYCP_DRIVER_HEARTBEAT", heartbeat);
    }
    try {
      return builder.start();
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED,
          "cannot run /bin/sh for the spawn command: " + e.getMessage(), e);
    }
  }

  /** {@code template} with the slot's placeholders, and {@code more}, replaced. */
  static String substitute(String template, SpawnSlot slot, Map<String, String> more) {
    String command = template.replace("{site}", slot.site())
        .replace("{slot}", Integer.toString(slot.slot()))
        .replace("{transfer}", slot.transferId());
    for (Map.Entry<String, String> entry : more.entrySet()) {
      command = command.replace(entry.getKey(), entry.getValue());
    }
    return command;
  }

  private static int waitFor(Process process) {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Override
  public void close() {
    running.keySet().forEach(this::end);
    tlsIdentityFile.ifPresent(TlsIdentityFile::close);
  }
}
