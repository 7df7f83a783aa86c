package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.fs.ChunkTarget;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import java.net.URI;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;

/** The messages of the relay protocol; {@link MessageCodec} maps each to one frame type. */
public sealed interface RelayMessage {

  /** Relay to client, first thing on every connection. */
  record Challenge(byte[] nonce) implements RelayMessage {
    public Challenge {
      nonce = requireNonNull(nonce, "nonce is null").clone();
    }

    @Override
    public byte[] nonce() {
      return nonce.clone();
    }
  }

  /**
   * Client to relay: the client's proof of the secret for the relay's nonce and this
   * connection (see {@link TransferSecret#clientProof}), and a nonce of its own for the
   * relay's proof.
   */
  record Proof(byte[] mac, byte[] nonce) implements RelayMessage {
    public Proof {
      mac = requireNonNull(mac, "mac is null").clone();
      nonce = requireNonNull(nonce, "nonce is null").clone();
    }

    @Override
    public byte[] mac() {
      return mac.clone();
    }

    @Override
    public byte[] nonce() {
      return nonce.clone();
    }
  }

  /**
   * Relay to client: proof accepted, and the relay's own proof of the secret for both nonces
   * and this connection (see {@link TransferSecret#relayProof}).
   */
  record Authenticated(byte[] mac) implements RelayMessage {
    public Authenticated {
      mac = requireNonNull(mac, "mac is null").clone();
    }

    @Override
    public byte[] mac() {
      return mac.clone();
    }
  }

  /**
   * The transfer that the orders on this connection belong to. A relay serves them as {@code
   * user}, with the Hadoop delegation tokens in {@code credentials} (Hadoop's token storage
   * format; empty where the clusters do not use Kerberos), and only for sources inside {@code
   * sourceRoot} and targets inside {@code stagingRoot}. A reader relay passes it on, unchanged,
   * as the first request of each of its connections to a writer relay; with {@code compress}
   * it sends the chunks' bytes compressed where that pays (see {@link DataCompression}). With
   * {@code storedChecksums} a writer relay asks the destination for the checksum of each file
   * it writes whole ({@link ChunkTarget.Kind#FILE}) and returns it with the chunk's answer.
   */
  record Transfer(String user, URI sourceRoot, URI stagingRoot, byte[] credentials,
      boolean compress, boolean storedChecksums) implements RelayMessage {
    public Transfer {
      requireNonNull(user, "user is null");
      requireNonNull(sourceRoot, "sourceRoot is null");
      requireNonNull(stagingRoot, "stagingRoot is null");
      credentials = requireNonNull(credentials, "credentials is null").clone();
      if (user.isEmpty()) {
        throw new IllegalArgumentException("user is empty");
      }
    }

    /** A transfer whose writers return no checksums. */
    public Transfer(String user, URI sourceRoot, URI stagingRoot, byte[] credentials,
        boolean compress) {
      this(user, sourceRoot, stagingRoot, credentials, compress, false);
    }

    /** A transfer whose bytes cross uncompressed and whose writers return no checksums. */
    public Transfer(String user, URI sourceRoot, URI stagingRoot, byte[] credentials) {
      this(user, sourceRoot, stagingRoot, credentials, false);
    }

    @Override
    public byte[] credentials() {
      return credentials.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Transfer that
          && compress == that.compress
          && storedChecksums == that.storedChecksums
          && user.equals(that.user)
          && sourceRoot.equals(that.sourceRoot)
          && stagingRoot.equals(that.stagingRoot)
          && Arrays.equals(credentials, that.credentials);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * user.hashCode() + sourceRoot.hashCode()) + stagingRoot.hashCode();
    }

    @Override
    public String toString() {
      return "Transfer[user=" + user + ", sourceRoot=" + sourceRoot + ", stagingRoot="
          + stagingRoot + ", credentials=" + credentials.length + " bytes, compress=" + compress
          + ", storedChecksums=" + storedChecksums + "]";
    }
  }

  /**
   * One chunk to move: {@code length} bytes of {@code source} from {@code offset}, to be written
   * as {@code target}. As SEND_CHUNK it goes to a reader relay and names the writer relay; as
   * WRITE_CHUNK it goes to the writer, followed by DATA frames and END_OF_CHUNK.
   */
  record ChunkOrder(
      long chunkId, URI source, long offset, long length, String writerAddress, ChunkTarget target)
      implements RelayMessage {
    public ChunkOrder {
      requireNonNull(source, "source is null");
      requireNonNull(writerAddress, "writerAddress is null");
      requireNonNull(target, "target is null");
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException(
            "offset and length must not be negative, got " + offset + " and " + length);
      }
    }
  }

  /** The order as the writer relay receives it. */
  record WriteChunk(ChunkOrder order) implements RelayMessage {
    public WriteChunk {
      requireNonNull(order, "order is null");
    }
  }

  /** Bytes of the chunk being written. Owns one reference to its buffer. */
  final class Data extends DefaultByteBufHolder implements RelayMessage {
    public Data(ByteBuf bytes) {
      super(bytes);
    }
  }

  /**
   * Bytes of the chunk being written, Snappy-compressed (see {@link DataCompression}); the
   * writer's codec hands them on as {@link Data}. Owns one reference to its buffer.
   */
  final class CompressedData extends DefaultByteBufHolder implements RelayMessage {
    public CompressedData(ByteBuf compressed) {
      super(compressed);
    }
  }

  /** The chunk being written is complete; {@code length} is how many bytes were sent. */
  record EndOfChunk(long chunkId, long length) implements RelayMessage {}

  /**
   * Writer to reader: the chunk is written; {@code partHandle} is empty for a whole file.
   * {@code storedChecksum} is the written file's checksum as the destination gives it, where
   * the transfer asked for it and the destination gave one.
   */
  record ChunkWritten(long chunkId, byte[] partHandle, Optional<StoredChecksum> storedChecksum)
      implements RelayMessage {
    public ChunkWritten {
      partHandle = requireNonNull(partHandle, "partHandle is null").clone();
      requireNonNull(storedChecksum, "storedChecksum is null");
    }

    /** A chunk written without asking for its file's checksum. */
    public ChunkWritten(long chunkId, byte[] partHandle) {
      this(chunkId, partHandle, Optional.empty());
    }

    @Override
    public byte[] partHandle() {
      return partHandle.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof ChunkWritten that
          && chunkId == that.chunkId
          && Arrays.equals(partHandle, that.partHandle)
          && storedChecksum.equals(that.storedChecksum);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(chunkId);
    }
  }

  /**
   * Reader to driver: the chunk crossed the whole route; {@code wireBytes} is what crossed the
   * relay hop for it (less than {@code bytes} where it went compressed). {@code sourceCrc32c} is
   * the CRC32C of the chunk's bytes as the reader read them, through an HDFS client that checked
   * them against the source's own checksums; empty from a relay that does not send it.
   * {@code storedChecksum} is the writer's {@link ChunkWritten#storedChecksum}, passed on; it
   * goes only with a {@code sourceCrc32c}.
   */
  record ChunkDone(long chunkId, long bytes, long wireBytes, byte[] partHandle,
      OptionalInt sourceCrc32c, Optional<StoredChecksum> storedChecksum)
      implements RelayMessage {
    public ChunkDone {
      partHandle = requireNonNull(partHandle, "partHandle is null").clone();
      requireNonNull(sourceCrc32c, "sourceCrc32c is null");
      requireNonNull(storedChecksum, "storedChecksum is null");
      if (storedChecksum.isPresent() && sourceCrc32c.isEmpty()) {
        throw new IllegalArgumentException("a stored checksum goes only with a source CRC");
      }
    }

    /** A chunk whose file's stored checksum is not known. */
    public ChunkDone(long chunkId, long bytes, long wireBytes, byte[] partHandle,
        OptionalInt sourceCrc32c) {
      this(chunkId, bytes, wireBytes, partHandle, sourceCrc32c, Optional.empty());
    }

    /** A chunk whose bytes' CRC is not known. */
    public ChunkDone(long chunkId, long bytes, long wireBytes, byte[] partHandle) {
      this(chunkId, bytes, wireBytes, partHandle, OptionalInt.empty());
    }

    /** A chunk whose bytes crossed uncompressed and whose CRC is not known. */
    public ChunkDone(long chunkId, long bytes, byte[] partHandle) {
      this(chunkId, bytes, bytes, partHandle);
    }

    @Override
    public byte[] partHandle() {
      return partHandle.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof ChunkDone that
          && chunkId == that.chunkId
          && bytes == that.bytes
          && wireBytes == that.wireBytes
          && Arrays.equals(partHandle, that.partHandle)
          && sourceCrc32c.equals(that.sourceCrc32c)
          && storedChecksum.equals(that.storedChecksum);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(chunkId);
    }
  }

  /** Either direction: the sender is alive; it sends this only when it has nothing else. */
  record KeepAlive() implements RelayMessage {
    public static final KeepAlive INSTANCE = new KeepAlive();
  }

  /** A chunk failed somewhere on its route. */
  record ChunkFailed(long chunkId, ErrorCode code, String message) implements RelayMessage {
    public ChunkFailed {
      requireNonNull(code, "code is null");
      requireNonNull(message, "message is null");
    }
  }
}
