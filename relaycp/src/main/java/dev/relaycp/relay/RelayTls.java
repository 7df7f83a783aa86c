package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import io.netty.channel.Channel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS on every relay connection, both ends authenticated by the transfer's secret.
 *
 * <p>Each process makes one ephemeral key pair (EC P-256) and a self-signed certificate for
 * it when it first needs them; nothing is written to disk and no certificate authority is
 * involved. TLS itself accepts any certificate and requires one from the client too; what
 * authenticates the peer is the secret handshake that runs inside TLS, whose proofs cover the
 * {@link #binding} of the connection: a hash of both ends' certificates. TLS proves that each
 * end holds the private key of the certificate it showed, so a peer in the middle, which
 * would have to show each end a certificate of its own, makes the two ends compute different
 * bindings and fails the handshake without knowing the secret; and one that does not know
 * the secret fails it anyway. This is channel binding in the sense of RFC 5929's
 * tls-server-end-point, extended to the client's certificate.
 *
 * <p>The cipher is AES-GCM where this JVM runs it fast, ChaCha20-Poly1305 where it does not.
 * AES-GCM is fast only through the AES and GHASH intrinsics, which only C2 compiles: under C1
 * alone ({@code -XX:TieredStopAtLevel=1}, a choice for short-lived relays on small hosts) it
 * ran at 40 MB/s a core here, ChaCha20-Poly1305 at 210, and with C2 AES-GCM at 2,500 against
 * ChaCha's 310 ({@code bench/results/2026-11-25-relay-tls-cipher.md}). Both ends offer both
 * suites. An end that runs AES-GCM fast lists it first and, as a server, follows the client's
 * order; an end that does not lists ChaCha20-Poly1305 first and, as a server, its own order. So
 * a connection uses AES-GCM only when both ends run it fast.
 *
 * <p>With TLS off ({@code relaycp.relay.tls=false}, both ends alike) the binding is empty and
 * the same handshake still authenticates both ends, in plaintext.
 */
public final class RelayTls {
  private static final Logger LOG = LoggerFactory.getLogger(RelayTls.class);
  private static final String HANDLER = "tls";
  private static final byte[] NO_BINDING = new byte[0];
  static final String AES_128_GCM = "TLS_AES_128_GCM_SHA256";
  static final String AES_256_GCM = "TLS_AES_256_GCM_SHA384";
  static final String CHACHA20_POLY1305 = "TLS_CHACHA20_POLY1305_SHA256";

  private final SslContext server;
  private final SslContext client;
  private final boolean fastAes;

  private RelayTls(SslContext server, SslContext client, boolean fastAes) {
    this.server = server;
    this.client = client;
    this.fastAes = fastAes;
  }

  /** This process's identity once made, or why it could not be; guarded by the class. */
  private static RelayTls identity;
  private static RelayCpException identityFailure;

  /**
   * This process's identity, made on first use (or by {@link #prepareInBackground}, which a
   * caller then waits for); a failure to make it is thrown to every caller.
   */
  public static synchronized RelayTls get() {
    if (identity == null && identityFailure == null) {
      try {
        identity = create(runsAesFast());
      } catch (RelayCpException e) {
        identityFailure = e;
      }
    }
    if (identityFailure != null) {
      throw identityFailure;
    }
    return identity;
  }

  /**
   * Starts making this process's identity (an EC key, a certificate, two TLS contexts: a
   * second of CPU in a fresh JVM) on a thread of its own, so that it is ready when the first
   * connection needs it. A relay calls this as it starts, beside its other preparation; a
   * driver as it waits for its relays. Without it the identity is made on the first
   * connection, in the path of the copy's first bytes, in each relay it goes through.
   */
  public static void prepareInBackground() {
    Thread preparing = new Thread(() -> {
      try {
        get();
      } catch (RelayCpException e) {
        LOG.debug("The TLS identity could not be made ({}); the first connection says why",
            e.getMessage());
      }
    }, "relay-tls-identity");
    preparing.setDaemon(true);
    preparing.start();
  }

  /**
   * Whether this JVM compiles AES-GCM's intrinsics: C2 is on (tiered compilation up to level 4,
   * or C2 alone) and the CPU has the AES and GHASH instructions the intrinsics use. A JVM that
   * does not say (not HotSpot) is taken to run it fast, as Java's own default order does.
   */
  static boolean runsAesFast() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      boolean tiered = Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue());
      boolean c2 = !tiered
          || Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()) >= 4;
      return c2 && Boolean.parseBoolean(vm.getVMOption("UseAESIntrinsics").getValue())
          && Boolean.parseBoolean(vm.getVMOption("UseGHASHIntrinsics").getValue());
    } catch (RuntimeException | LinkageError e) {
      return true;
    }
  }

  /** Whether this process lists AES-GCM first (see the class comment). */
  boolean fastAes() {
    return fastAes;
  }

  static RelayTls create(boolean fastAes) {
    List<String> ciphers = fastAes
        ? List.of(AES_128_GCM, AES_256_GCM, CHACHA20_POLY1305)
        : List.of(CHACHA20_POLY1305, AES_128_GCM, AES_256_GCM);
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      KeyPair keys = generator.generateKeyPair();
      X509Certificate certificate = selfSigned(keys);
      SslContext server = SslContextBuilder.forServer(keys.getPrivate(), certificate)
          .sslProvider(SslProvider.JDK)
          .clientAuth(ClientAuth.REQUIRE)
          .trustManager(InsecureTrustManagerFactory.INSTANCE)
          .protocols("TLSv1.3")
          .ciphers(ciphers)
          .build();
      SslContext client = SslContextBuilder.forClient()
          .sslProvider(SslProvider.JDK)
          .keyManager(keys.getPrivate(), certificate)
          .trustManager(InsecureTrustManagerFactory.INSTANCE)
          .protocols("TLSv1.3")
          .ciphers(ciphers)
          .build();
      return new RelayTls(server, client, fastAes);
    } catch (GeneralSecurityException | SSLException | RuntimeException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot set up TLS for the relay"
          + " connections (" + e + "); it needs Java's EC and TLS 1.3 and BouncyCastle's"
          + " bcpkix, which Hadoop ships; or set relaycp.relay.tls=false on every end", e);
    } catch (NoClassDefFoundError e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot set up TLS for the relay"
          + " connections: BouncyCastle (bcpkix) is not on the class path (" + e.getMessage()
          + "); put Hadoop's own jars on it, or set relaycp.relay.tls=false on every end", e);
    }
  }

  private static X509Certificate selfSigned(KeyPair keys) throws GeneralSecurityException {
    try {
      X500Name name = new X500Name("CN=relaycp");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
          new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
          Date.from(now.plus(Duration.ofDays(3650))), name, keys.getPublic());
      return new JcaX509CertificateConverter().getCertificate(builder.build(
          new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    } catch (org.bouncycastle.operator.OperatorCreationException e) {
      throw new GeneralSecurityException("signing the relay's certificate", e);
    }
  }

  /** Puts TLS first in an accepted connection's pipeline. */
  void addServer(Channel channel) {
    SslHandler handler = withoutOwnDeadline(server.newHandler(channel.alloc()));
    SSLParameters parameters = handler.engine().getSSLParameters();
    parameters.setUseCipherSuitesOrder(!fastAes);
    handler.engine().setSSLParameters(parameters);
    channel.pipeline().addFirst(HANDLER, handler);
  }

  /** Puts TLS first in an outgoing connection's pipeline. */
  void addClient(Channel channel) {
    channel.pipeline().addFirst(HANDLER, withoutOwnDeadline(client.newHandler(channel.alloc())));
  }

  /**
   * Turns off Netty's own 10 s limit on the TLS handshake. The connection's deadlines already
   * cover it: a relay's {@code relaycp.relay.handshake-timeout-seconds} runs from the accept to
   * the proof of the secret, a driver's attempt has its own, and a silent peer is dropped by
   * the keep-alive's silence timeout. Netty's limit instead closed slow handshakes of fresh
   * relay JVMs on busy hosts mid-way, which a driver can only read as a refusal.
   */
  static SslHandler withoutOwnDeadline(SslHandler handler) {
    handler.setHandshakeTimeoutMillis(0);
    return handler;
  }

  /**
   * The connection's binding for the secret handshake: SHA-256 of the server's certificate
   * then the client's, as TLS authenticated them; empty without TLS. Call once data has
   * arrived (the TLS handshake is then complete).
   *
   * @param server whether this end accepted the connection
   */
  static byte[] binding(Channel channel, boolean server) {
    requireNonNull(channel, "channel is null");
    SslHandler tls = channel.pipeline().get(SslHandler.class);
    if (tls == null) {
      return NO_BINDING;
    }
    SSLSession session = tls.engine().getSession();
    try {
      Certificate[] local = session.getLocalCertificates();
      Certificate[] peer = session.getPeerCertificates();
      if (local == null || local.length == 0 || peer.length == 0) {
        throw new IllegalStateException("a TLS end showed no certificate");
      }
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update((server ? local : peer)[0].getEncoded());
      digest.update((server ? peer : local)[0].getEncoded());
      return digest.digest();
    } catch (SSLPeerUnverifiedException e) {
      throw new IllegalStateException("the TLS handshake has not authenticated the peer", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 and certificate encoding are part of Java", e);
    }
  }
}
