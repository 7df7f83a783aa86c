package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One frame of the relay protocol: its type and its payload. The frame owns one reference to
 * the payload; whoever consumes the frame releases it.
 */
public final class Frame extends DefaultByteBufHolder {
  private final FrameType type;

  private Frame(FrameType type, ByteBuf payload) {
    super(payload);
    this.type = requireNonNull(type, "type is null");
  }

  public static Frame of(FrameType type, ByteBuf payload) {
    return new Frame(type, requireNonNull(payload, "payload is null"));
  }

  public FrameType type() {
    return type;
  }

  @Override
  public Frame replace(ByteBuf content) {
    return new Frame(type, content);
  }

  @Override
  public String toString() {
    return "Frame(" + type + ", " + content().readableBytes() + " bytes)";
  }
}
