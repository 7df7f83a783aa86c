package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import io.netty.channel.Channel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Arrays;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS on every relay connection, both ends authenticated by the transfer's secret.
 *
 * <p>Each process makes one ephemeral key pair (EC P-256) and a self-signed certificate for
 * it when it first needs them ({@link TlsIdentity}); nothing is written to disk and no
 * certificate authority is involved. Relays a driver starts as YARN containers take the
 * driver's instead ({@link #adopt}), from the credentials that carry the secret: the key is
 * held by no one who does not hold the secret too, and the argument below holds as well for
 * two ends that show the same certificate. TLS itself accepts any certificate and requires one
 * from the client too; what authenticates the peer is the secret handshake that runs inside
 * TLS, whose proofs cover the {@link #binding} of the connection: a hash of both ends'
 * certificates. TLS proves that each end holds the private key of the certificate it showed,
 * so a peer in the middle, which would have to show each end a certificate of its own, makes
 * the two ends compute different bindings and fails the handshake without knowing the secret;
 * and one that does not know the secret fails it anyway. This is channel binding in the sense
 * of RFC 5929's tls-server-end-point, extended to the client's certificate.
 *
 * <p>Where Netty's OpenSSL binding loads (netty-tcnative with BoringSSL, which the product jar
 * carries for Linux on x86-64 and ARM64), the records are sealed and opened in native code,
 * whatever the JIT: BoringSSL runs AES-GCM on the CPU's AES instructions, or ChaCha20-Poly1305
 * where it has none, and as a server follows the client's order among suites it runs equally
 * well. In a relay under C1 alone Java's own ChaCha20-Poly1305 had taken half the relay's CPU
 * ({@code bench/results/2026-11-27-relay-tls-native/}). The system property {@code
 * io.netty.handler.ssl.noOpenSsl=true} turns the binding off; then Java's TLS runs as follows.
 *
 * <p>With Java's TLS the cipher is AES-GCM where this JVM runs it fast, ChaCha20-Poly1305 where
 * it does not. AES-GCM is fast only through the AES and GHASH intrinsics, which only C2
 * compiles: under C1 alone ({@code -XX:TieredStopAtLevel=1}, a choice for short-lived relays on
 * small hosts) it ran at 40 MB/s a core here, ChaCha20-Poly1305 at 210, and with C2 AES-GCM at
 * 2,500 against ChaCha's 310 ({@code bench/results/2026-11-25-relay-tls-cipher.md}). Both ends
 * offer both suites. An end that runs AES-GCM fast lists it first and, as a server, follows the
 * client's order; an end that does not lists ChaCha20-Poly1305 first and, as a server, its own
 * order. So a connection uses AES-GCM only when both ends run it fast, whichever end runs
 * OpenSSL.
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

  /** This process's identity once made, or why it could not be; guarded by the class. */
  private static RelayTls identity;
  private static RelayCpException identityFailure;
  /** The key and certificate to make it from ({@link #adopt}); else it makes its own. */
  private static TlsIdentity adopted;

  /** Java's TLS, where OpenSSL does not load; null otherwise. */
  private final SSLContext context;
  /** Java's TLS's suites, in this end's order; empty with OpenSSL, which picks its own. */
  private final String[] ciphers;
  private final boolean fastAes;
  /** OpenSSL's contexts for accepted and outgoing connections, where it loads; else null. */
  private final SslContext openSslServer;
  private final SslContext openSslClient;
  /** The key and certificate this end shows. */
  private final TlsIdentity own;

  private RelayTls(TlsIdentity own, SSLContext context, String[] ciphers, boolean fastAes,
      SslContext openSslServer, SslContext openSslClient) {
    this.own = own;
    this.context = context;
    this.ciphers = ciphers;
    this.fastAes = fastAes;
    this.openSslServer = openSslServer;
    this.openSslClient = openSslClient;
  }

  /**
   * This process's identity, made on first use (or by {@link #prepareInBackground}, which a
   * caller then waits for); a failure to make it is thrown to every caller.
   */
  public static synchronized RelayTls get() {
    if (identity == null && identityFailure == null) {
      try {
        identity = create(runsAesFast(), runsOpenSsl(), Optional.ofNullable(adopted));
        LOG.info("Relay connections run TLS 1.3 through {}, with {} key", identity.openSsl()
            ? OpenSsl.versionString() + " (Netty's OpenSSL binding)"
            : "Java, " + (identity.fastAes ? "AES-GCM" : "ChaCha20-Poly1305") + " first",
            adopted != null ? "the driver's" : "this process's own");
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
   * driver as it lists the source, before it asks for relays. Without it the identity is made
   * on the first connection, in the path of the copy's first bytes, in each relay it goes
   * through.
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
   * Makes this process's identity from {@code own} instead of a key of its own: how a relay
   * container takes its driver's ({@link TlsIdentity}). Call before the first connection.
   */
  public static synchronized void adopt(TlsIdentity own) {
    requireNonNull(own, "own is null");
    if (identity != null || identityFailure != null) {
      throw new IllegalStateException("this process's TLS identity is made already");
    }
    adopted = own;
  }

  /**
   * This process's key and certificate, for relays it starts to {@link #adopt}: made now if
   * {@link #prepareInBackground} has not made them yet. Empty if they cannot be made here; the
   * relays then make their own.
   */
  public static Optional<TlsIdentity> identityToShare() {
    try {
      return Optional.of(get().own);
    } catch (RelayCpException e) {
      return Optional.empty();
    }
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

  /**
   * Whether Netty's OpenSSL binding loads here and speaks TLS 1.3; false where its native
   * library is missing for this platform, refused by it, or turned off.
   */
  static boolean runsOpenSsl() {
    try {
      return OpenSsl.isAvailable() && SslProvider.isTlsv13Supported(SslProvider.OPENSSL);
    } catch (LinkageError e) {
      LOG.debug("Netty's OpenSSL binding does not load; the relays' TLS runs in Java", e);
      return false;
    }
  }

  /** Whether Java's TLS lists AES-GCM first here (see the class comment); with OpenSSL, true. */
  boolean fastAes() {
    return fastAes;
  }

  /** Whether the records are sealed by OpenSSL rather than by Java. */
  boolean openSsl() {
    return openSslServer != null;
  }

  /**
   * An identity, its key and certificate new, for Java's TLS listing AES-GCM first when {@code
   * fastAes} or for OpenSSL when {@code openSsl}.
   */
  static RelayTls create(boolean fastAes, boolean openSsl) {
    return create(fastAes, openSsl, Optional.empty());
  }

  /** As {@link #create(boolean, boolean)}, with the key and certificate {@code own} if given. */
  static RelayTls create(boolean fastAes, boolean openSsl, Optional<TlsIdentity> own) {
    List<String> ciphers = fastAes || openSsl
        ? List.of(AES_128_GCM, AES_256_GCM, CHACHA20_POLY1305)
        : List.of(CHACHA20_POLY1305, AES_128_GCM, AES_256_GCM);
    try {
      TlsIdentity keyAndCertificate = own.isPresent() ? own.get() : TlsIdentity.generate();
      OwnIdentity identity =
          new OwnIdentity(keyAndCertificate.key(), keyAndCertificate.certificate());
      if (openSsl) {
        try {
          return withOpenSsl(keyAndCertificate, identity);
        } catch (SSLException | RuntimeException | LinkageError e) {
          LOG.warn("Netty's OpenSSL binding loads but made no TLS context ({}); the relay"
              + " connections run Java's TLS", e.toString());
        }
      }
      SSLContext context = SSLContext.getInstance("TLSv1.3");
      context.init(new KeyManager[] {identity},
          InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), new SecureRandom());
      return new RelayTls(keyAndCertificate, context, ciphers.toArray(String[]::new), fastAes,
          null, null);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot set up TLS for the relay"
          + " connections (" + e + "); it needs Java's EC and TLS 1.3 and BouncyCastle's"
          + " bcpkix, which Hadoop ships; or set relaycp.relay.tls=false on every end", e);
    } catch (NoClassDefFoundError e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot set up TLS for the relay"
          + " connections: BouncyCastle (bcpkix) is not on the class path (" + e.getMessage()
          + "); put Hadoop's own jars on it, or set relaycp.relay.tls=false on every end", e);
    }
  }

  /** OpenSSL's server and client contexts for {@code own}, shown through {@code identity}. */
  private static RelayTls withOpenSsl(TlsIdentity own, OwnIdentity identity)
      throws SSLException {
    // BoringSSL picks TLS 1.3's suite itself (the cipher list covers only older versions).
    SslContext server = SslContextBuilder.forServer(identity)
        .sslProvider(SslProvider.OPENSSL)
        .protocols("TLSv1.3")
        .clientAuth(ClientAuth.REQUIRE)
        .trustManager(InsecureTrustManagerFactory.INSTANCE)
        .build();
    SslContext client = SslContextBuilder.forClient()
        .sslProvider(SslProvider.OPENSSL)
        .protocols("TLSv1.3")
        .keyManager(identity)
        .trustManager(InsecureTrustManagerFactory.INSTANCE)
        .build();
    return new RelayTls(own, null, new String[0], true, server, client);
  }

  /** Puts TLS first in an accepted connection's pipeline. */
  void addServer(Channel channel) {
    if (openSslServer != null) {
      channel.pipeline().addFirst(HANDLER,
          withoutOwnDeadline(openSslServer.newHandler(channel.alloc())));
      return;
    }
    SSLEngine engine = engine(false);
    engine.setNeedClientAuth(true);
    SSLParameters parameters = engine.getSSLParameters();
    parameters.setUseCipherSuitesOrder(!fastAes);
    engine.setSSLParameters(parameters);
    channel.pipeline().addFirst(HANDLER, withoutOwnDeadline(new SslHandler(engine)));
  }

  /** Puts TLS first in an outgoing connection's pipeline. */
  void addClient(Channel channel) {
    SslHandler handler = openSslClient != null
        ? openSslClient.newHandler(channel.alloc())
        : new SslHandler(engine(true));
    channel.pipeline().addFirst(HANDLER, withoutOwnDeadline(handler));
  }

  private SSLEngine engine(boolean client) {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(client);
    engine.setEnabledProtocols(new String[] {"TLSv1.3"});
    engine.setEnabledCipherSuites(ciphers);
    return engine;
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
  /**
   * The process's one key and certificate, offered for every TLS handshake, as server and as
   * client. JSSE takes key managers directly, so neither a key store (whose PKCS#12 entries
   * are encrypted with a password-based key of many hash rounds) nor Netty's SslContext
   * builders (whose server context, on first use, parses a PEM key through BouncyCastle's whole
   * JCE provider: a quarter of a CPU-second in each fresh relay JVM) stand in its way.
   */
  private static final class OwnIdentity extends X509ExtendedKeyManager {
    private static final String ALIAS = "relaycp";
    private final PrivateKey key;
    private final X509Certificate certificate;

    OwnIdentity(PrivateKey key, X509Certificate certificate) {
      this.key = key;
      this.certificate = certificate;
    }

    private String aliasFor(String keyType) {
      return key.getAlgorithm().equals(keyType) ? ALIAS : null;
    }

    private String aliasForAny(String[] keyTypes) {
      return keyTypes != null && Arrays.asList(keyTypes).contains(key.getAlgorithm())
          ? ALIAS : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return aliasFor(keyType) == null ? null : new String[] {ALIAS};
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
      return aliasForAny(keyTypes);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers,
        SSLEngine engine) {
      return aliasForAny(keyTypes);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return aliasFor(keyType) == null ? null : new String[] {ALIAS};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return aliasFor(keyType);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return aliasFor(keyType);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return ALIAS.equals(alias) ? new X509Certificate[] {certificate} : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return ALIAS.equals(alias) ? key : null;
    }
  }
}
