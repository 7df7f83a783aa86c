package dev.relaycp.provision.spawn;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP hop in front of an AWS endpoint (moto) that passes every request on, and for those
 * whose body holds {@code marker} lets the endpoint act on it and then breaks the connection
 * instead of giving the caller the answer: a call that succeeded where the caller cannot see.
 */
final class AnswerDroppingProxy implements AutoCloseable {
  private static final Set<String> HOP_HEADERS =
      Set.of("host", "content-length", "connection", "transfer-encoding", "expect");

  private final HttpServer server;
  private final URI target;
  private final String marker;
  private final AtomicInteger dropped = new AtomicInteger();

  private AnswerDroppingProxy(HttpServer server, URI target, String marker) {
    this.server = server;
    this.target = target;
    this.marker = marker;
  }

  static AnswerDroppingProxy start(URI target, String marker) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AnswerDroppingProxy proxy = new AnswerDroppingProxy(server, target, marker);
    server.createContext("/", proxy::forward);
    server.start();
    return proxy;
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** How many answers were kept from the caller. */
  int dropped() {
    return dropped.get();
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpURLConnection connection = (HttpURLConnection) target
          .resolve(exchange.getRequestURI().toString()).toURL().openConnection();
      connection.setRequestMethod(exchange.getRequestMethod());
      for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
        if (!HOP_HEADERS.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
          for (String value : header.getValue()) {
            connection.addRequestProperty(header.getKey(), value);
          }
        }
      }
      if (body.length > 0) {
        connection.setDoOutput(true);
        try (OutputStream out = connection.getOutputStream()) {
          out.write(body);
        }
      }
      int status = connection.getResponseCode();
      byte[] answer;
      try (InputStream in = status >= 400
          ? connection.getErrorStream() : connection.getInputStream()) {
        answer = in == null ? new byte[0] : in.readAllBytes();
      }
      if (new String(body, StandardCharsets.UTF_8).contains(marker)) {
        // Closing the exchange before its headers are sent closes the connection: the caller
        // reads the end of the stream where its answer should be.
        dropped.incrementAndGet();
        return;
      }
      String type = connection.getContentType();
      if (type != null) {
        exchange.getResponseHeaders().set("Content-Type", type);
      }
      exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
