package dev.relaycp.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on loopback that flips one bit in the client-to-server stream, once, at a given
 * byte offset of the first connection: a damaged frame on a real socket.
 */
final class CorruptingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final AtomicBoolean corrupted = new AtomicBoolean();

  CorruptingProxy(int targetPort, long corruptAtByte) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      try {
        while (!listener.isClosed()) {
          Socket client = listener.accept();
          Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
          boolean corruptThis = corrupted.compareAndSet(false, true);
          pump(client.getInputStream(), server.getOutputStream(), corruptThis ? corruptAtByte : -1,
              client, server);
          pump(server.getInputStream(), client.getOutputStream(), -1, client, server);
        }
      } catch (IOException e) {
        // The listener closed.
      }
    }, "corrupting-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  private static void pump(InputStream in, OutputStream out, long corruptAt, Socket a, Socket b) {
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[8192];
      long position = 0;
      try {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          if (corruptAt >= position && corruptAt < position + read) {
            buffer[(int) (corruptAt - position)] ^= 0x10;
          }
          position += read;
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException e) {
        // One side closed.
      } finally {
        try {
          a.close();
          b.close();
        } catch (IOException e) {
          // Already closed.
        }
      }
    }, "corrupting-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
