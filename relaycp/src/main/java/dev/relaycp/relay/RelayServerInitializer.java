package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.HadoopChunkWriter;
import dev.relaycp.fs.HadoopRangeReader;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Assembles the pipeline of an accepted connection: TLS (unless {@code relaycp.relay.tls} is
 * off), a cap on what an unauthenticated peer may send, framing, CRC, messages, then the
 * handshake, which hands over to the role handler once the peer has proven the secret.
 */
final class RelayServerInitializer extends ChannelInitializer<SocketChannel> {
  private final RelaySettings settings;
  private final RelayConnector connector;
  private final HadoopRangeReader reader;
  private final HadoopChunkWriter writer;
  private final ExecutorService workers;
  private final ThreadFactory sessionThreads;
  private final RelayCounters counters;
  private final TransferScopes scopes;
  /** What the relay's reader sessions may send, all together. */
  private final SendRateLimit limit;
  /** Read once: the setting is looked up in the configuration, and connections are many. */
  private final boolean tls;

  RelayServerInitializer(
      RelaySettings settings,
      RelayConnector connector,
      HadoopRangeReader reader,
      HadoopChunkWriter writer,
      ExecutorService workers,
      ThreadFactory sessionThreads,
      RelayCounters counters,
      TransferScopes scopes) {
    this.settings = requireNonNull(settings, "settings is null");
    this.connector = requireNonNull(connector, "connector is null");
    this.reader = requireNonNull(reader, "reader is null");
    this.writer = requireNonNull(writer, "writer is null");
    this.workers = requireNonNull(workers, "workers is null");
    this.sessionThreads = requireNonNull(sessionThreads, "sessionThreads is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.scopes = requireNonNull(scopes, "scopes is null");
    this.tls = settings.tls();
    this.limit = SendRateLimit.of(settings.bytesPerSecondLimit());
  }

  @Override
  protected void initChannel(SocketChannel channel) {
    ChannelPipeline pipeline = channel.pipeline();
    if (tls) {
      RelayTls.get().addServer(channel);
    }
    pipeline.addLast("idle", KeepAliveHandler.idleStateHandler(settings.silenceTimeoutMillis()));
    pipeline.addLast("unauthenticated", new UnauthenticatedLimitHandler(
        ServerAuthenticationHandler.MAX_UNAUTHENTICATED_BYTES));
    pipeline.addLast("frames", FrameCodec.newFrameDecoder());
    pipeline.addLast("crc", new FrameCodec());
    pipeline.addLast("messages", new MessageCodec());
    pipeline.addLast("keep-alive", new KeepAliveHandler(
        "peer " + channel.remoteAddress(), settings.silenceTimeoutMillis()));
    pipeline.addLast("handshake", new ServerAuthenticationHandler(
        settings.secret(),
        () -> new RelayRoleHandler(scopes,
            scope -> new ReaderSessionHandler(scope,
                connector, reader, counters, settings.dataFrameBytes(),
                settings.parallelStreams(), limit, sessionThreads),
            scope -> new WriterSessionHandler(scope, writer, workers, counters)),
        counters,
        settings.authenticationTimeoutMillis()));
  }
}
