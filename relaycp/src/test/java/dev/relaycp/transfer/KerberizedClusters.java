package dev.relaycp.transfer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.relaycp.testkit.HighlyAvailableHdfs;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A KDC and two kerberized in-process HDFS clusters, "source" and "destination", in one realm:
 * for tests that show whom relaycp acts as. Every HDFS call must carry a Kerberos ticket or a
 * delegation token, datanodes demand block tokens over SASL, and permissions are checked.
 *
 * <p>Principals: {@code hdfs/localhost} (the clusters' own, and so the HDFS superuser {@code
 * hdfs}) and {@code HTTP/localhost} (their web servers), both in {@link #serviceKeytab()}; the
 * users {@link #USERS}, each {@code user@REALM} with a keytab of its own ({@link #keytab}).
 * The clusters log this JVM in as {@code hdfs/localhost}: code outside {@link #asUser} (or a
 * token holder's doAs) acts as the superuser.
 *
 * <p>What both clusters hold once started:
 * <ul>
 *   <li>{@code /user/alice} owned by alice and {@code /user/bob} owned by bob, mode 755;
 *   <li>{@code /private}, owned by hdfs, mode 700, with {@code /private/secret.bin} ({@link
 *       #secret()}) inside;
 * </ul>
 * and the source cluster also {@code /shared}, owned by hdfs, mode 755.
 *
 * <p>{@link #startHighlyAvailable} starts each cluster with two NameNodes behind a nameservice
 * ({@code hdfs://src}, {@code hdfs://dst}) that clients reach through HDFS's failover proxy, as
 * production clusters run: delegation tokens are then issued for the nameservice ({@code
 * ha-hdfs:src}) and serve at either NameNode.
 *
 * <p>Kerberos state is JVM-wide: UserGroupInformation's configuration and login user, and the
 * JDK's krb5.conf (the {@code java.security.krb5.conf} property MiniKdc sets). So one instance at
 * a time, in a JVM no non-kerberos test shares while it runs: surefire's "kerberos" execution
 * runs the {@code Kerberized*Test} classes tagged {@code @Tag("kerberos")}, each in a fork of
 * its own (see relaycp/pom.xml).
 */
public final class KerberizedClusters implements AutoCloseable {
  /** The ordinary users, each with a principal {@code user@REALM} and a keytab of its own. */
  public static final List<String> USERS = List.of("alice", "bob");

  private static final byte[] SECRET = "for the superuser's eyes only\n".getBytes(UTF_8);

  /** Block size of both clusters and their clients: a few MiB of data spans several blocks. */
  public static final long BLOCK_SIZE = 1024 * 1024;

  private static final String SUPERUSER = "hdfs";
  /** The host part of the service principals: the clusters listen on localhost. */
  private static final String SERVICE_HOST = "localhost";
  private static final int DATANODES = 2;
  private static final String SOURCE_NAMESERVICE = "src";
  private static final String DESTINATION_NAMESERVICE = "dst";

  private final MiniKdc kdc;
  private final Path krb5Conf;
  private final Path keytabDirectory;
  private final MiniDFSCluster source;
  private final MiniDFSCluster destination;
  /** Only the keys a client needs (see {@link #clientKeys}), without Hadoop's defaults. */
  private final Configuration clientKeys;
  /** Whether the clusters run as nameservices "src" and "dst" of two NameNodes each. */
  private final boolean highlyAvailable;
  /** One login per user, kept so FileSystem.get's cache (keyed by UGI) stays bounded. */
  private final Map<String, UserGroupInformation> logins = new HashMap<>();

  private KerberizedClusters(MiniKdc kdc, Path krb5Conf, Path keytabDirectory,
      MiniDFSCluster source, MiniDFSCluster destination, boolean highlyAvailable) {
    this.kdc = kdc;
    this.krb5Conf = krb5Conf;
    this.keytabDirectory = keytabDirectory;
    this.source = source;
    this.destination = destination;
    this.highlyAvailable = highlyAvailable;
    this.clientKeys = clientKeys(kdc.getRealm(),
        highlyAvailable ? URI.create("hdfs://" + SOURCE_NAMESERVICE) : source.getURI());
    if (highlyAvailable) {
      clientKeys.set(DFSConfigKeys.DFS_NAMESERVICES,
          SOURCE_NAMESERVICE + "," + DESTINATION_NAMESERVICE);
      // The NameNodes at the host their principal names.
      HighlyAvailableHdfs.clientKeys(SOURCE_NAMESERVICE, source, SERVICE_HOST)
          .forEach(clientKeys::set);
      HighlyAvailableHdfs.clientKeys(DESTINATION_NAMESERVICE, destination, SERVICE_HOST)
          .forEach(clientKeys::set);
    }
  }

  /**
   * Starts the KDC in {@code baseDirectory/kdc} and the clusters in {@code
   * baseDirectory/source} and {@code baseDirectory/destination}, and lays out the directories
   * the class comment lists. Leaves UserGroupInformation configured for Kerberos.
   */
  public static KerberizedClusters start(Path baseDirectory) throws Exception {
    return start(baseDirectory, false);
  }

  /**
   * Starts as {@link #start} does, each cluster with two NameNodes (the first active) behind
   * nameservice {@code src} or {@code dst}.
   */
  public static KerberizedClusters startHighlyAvailable(Path baseDirectory) throws Exception {
    return start(baseDirectory, true);
  }

  private static KerberizedClusters start(Path baseDirectory, boolean highlyAvailable)
      throws Exception {
    Path kdcDirectory = Files.createDirectories(baseDirectory.resolve("kdc"));
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), kdcDirectory.toFile());
    kdc.start();
    MiniDFSCluster source = null;
    MiniDFSCluster destination = null;
    try {
      // MiniKdc writes its krb5.conf and points java.security.krb5.conf at it.
      Path krb5Conf = kdc.getKrb5conf().toPath().toAbsolutePath();
      Path keytabDirectory = Files.createDirectories(baseDirectory.resolve("keytabs"));
      kdc.createPrincipal(keytabDirectory.resolve(SUPERUSER + ".keytab").toFile(),
          SUPERUSER + "/" + SERVICE_HOST, "HTTP/" + SERVICE_HOST);
      for (String user : USERS) {
        kdc.createPrincipal(keytabDirectory.resolve(user + ".keytab").toFile(), user);
      }

      Configuration server = serverConfiguration(kdc.getRealm(),
          keytabDirectory.resolve(SUPERUSER + ".keytab"));
      // Before any cluster starts: the NameNode and the datanodes log in through UGI, which
      // takes "kerberos" and the auth_to_local rules from here, once for the whole JVM.
      UserGroupInformation.setConfiguration(server);
      source = cluster(server, baseDirectory.resolve("source"),
          highlyAvailable ? SOURCE_NAMESERVICE : null);
      destination = cluster(server, baseDirectory.resolve("destination"),
          highlyAvailable ? DESTINATION_NAMESERVICE : null);

      KerberizedClusters clusters = new KerberizedClusters(kdc, krb5Conf, keytabDirectory,
          source, destination, highlyAvailable);
      clusters.layOut(source, true);
      clusters.layOut(destination, false);
      return clusters;
    } catch (Exception | Error e) {
      shutDown(source, destination, kdc);
      throw e;
    }
  }

  /**
   * What the NameNodes and datanodes run with: the client's keys, and the servers' own
   * principals and keytab.
   */
  private static Configuration serverConfiguration(String realm, Path serviceKeytab) {
    Configuration configuration = new Configuration();
    for (Map.Entry<String, String> entry : clientKeys(realm, null)) {
      configuration.set(entry.getKey(), entry.getValue());
    }
    String keytab = serviceKeytab.toString();
    configuration.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab);
    configuration.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY,
        servicePrincipal(realm));
    configuration.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab);
    configuration.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY,
        "HTTP/" + SERVICE_HOST + "@" + realm);
    configuration.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, keytab);
    // A secure DataNode refuses to start without block tokens: they are what lets a client
    // the NameNode authorized read or write a block at a datanode.
    configuration.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    // A secure DataNode otherwise wants privileged ports (root and jsvc) or HTTPS for its web
    // server. This lets it start on ordinary ports over plain HTTP; data transfer is still
    // SASL-authenticated with block tokens, as dfs.data.transfer.protection asks.
    configuration.setBoolean(DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY, true);
    configuration.setBoolean(DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY, true);
    // A client may ask for any block size it likes, as relaycp's tests do.
    configuration.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    return configuration;
  }

  /**
   * The keys a client of either cluster needs, and nothing else: Kerberos on, how principals
   * map to user names, which principal the NameNodes must present, SASL on data transfer, and
   * the block size and replication the clusters are sized for. {@code fs.defaultFS} is the
   * source cluster's when {@code defaultFileSystem} is given.
   */
  private static Configuration clientKeys(String realm, URI defaultFileSystem) {
    Configuration keys = new Configuration(false);
    keys.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "kerberos");
    keys.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTH_TO_LOCAL,
        authToLocalRules(realm));
    keys.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, servicePrincipal(realm));
    // "authentication": SASL with the block token, no wire encryption. Without the key a
    // client skips the handshake and the datanodes drop its connections.
    keys.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    keys.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK_SIZE);
    keys.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, DATANODES);
    if (defaultFileSystem != null) {
      keys.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, defaultFileSystem.toString());
    }
    return keys;
  }

  /**
   * {@code user@REALM} and {@code service/host@REALM} map to {@code user} and {@code service}.
   * Spelled out rather than left to "DEFAULT", whose idea of the default realm comes from
   * whatever krb5.conf the JVM read first, possibly before the KDC existed.
   */
  private static String authToLocalRules(String realm) {
    String escapedRealm = realm.replace(".", "\\.");
    return String.join("\n",
        "RULE:[1:$1@$0](.*@" + escapedRealm + ")s/@.*//",
        "RULE:[2:$1@$0](.*@" + escapedRealm + ")s/@.*//",
        "DEFAULT");
  }

  private static String servicePrincipal(String realm) {
    return SUPERUSER + "/" + SERVICE_HOST + "@" + realm;
  }

  /** A cluster of one NameNode, or of two behind {@code nameservice} where one is given. */
  private static MiniDFSCluster cluster(Configuration server, Path directory,
      String nameservice) throws IOException {
    // A copy each: MiniDFSCluster writes its ports and directories into the configuration.
    MiniDFSCluster.Builder builder =
        new MiniDFSCluster.Builder(new Configuration(server), directory.toFile())
            .numDataNodes(DATANODES);
    return nameservice == null ? builder.build()
        : HighlyAvailableHdfs.build(builder, nameservice);
  }

  /** Creates the directories and the secret file the class comment lists, as hdfs. */
  private void layOut(MiniDFSCluster cluster, boolean withShared) throws Exception {
    asSuperuser(() -> {
      try (FileSystem fileSystem = FileSystem.newInstance(uri(cluster, "/"), configuration())) {
        FsPermission open = new FsPermission((short) 0755);
        directory(fileSystem, "/user", open, SUPERUSER);
        for (String user : USERS) {
          directory(fileSystem, "/user/" + user, open, user);
        }
        directory(fileSystem, "/private", new FsPermission((short) 0700), SUPERUSER);
        org.apache.hadoop.fs.Path secret = new org.apache.hadoop.fs.Path("/private/secret.bin");
        try (FSDataOutputStream out = fileSystem.create(secret, false)) {
          out.write(SECRET);
        }
        fileSystem.setPermission(secret, new FsPermission((short) 0600));
        if (withShared) {
          directory(fileSystem, "/shared", open, SUPERUSER);
        }
      }
      return null;
    });
  }

  private static void directory(FileSystem fileSystem, String path, FsPermission permission,
      String owner) throws IOException {
    org.apache.hadoop.fs.Path directory = new org.apache.hadoop.fs.Path(path);
    fileSystem.mkdirs(directory);
    // mkdirs applies the umask; setPermission does not.
    fileSystem.setPermission(directory, permission);
    fileSystem.setOwner(directory, owner, null);
  }

  /** The contents of {@code /private/secret.bin}, which no ordinary user may read. */
  public static byte[] secret() {
    return SECRET.clone();
  }

  /** The realm both clusters and all principals are in, e.g. EXAMPLE.COM. */
  public String realm() {
    return kdc.getRealm();
  }

  /**
   * The krb5.conf that points at the KDC. This JVM already uses it; a child JVM needs {@code
   * -Djava.security.krb5.conf=<this path>}.
   */
  public Path krb5Conf() {
    return krb5Conf;
  }

  /** The keytab of {@code user}, one of {@link #USERS}. */
  public Path keytab(String user) {
    return keytabDirectory.resolve(knownUser(user) + ".keytab");
  }

  /** {@code user@REALM}, for one of {@link #USERS}. */
  public String principal(String user) {
    return knownUser(user) + "@" + realm();
  }

  /** {@code hdfs/localhost@REALM}: the NameNodes' and datanodes' principal, the superuser's. */
  public String servicePrincipal() {
    return servicePrincipal(realm());
  }

  /** The keytab of {@link #servicePrincipal()}, which also holds {@code HTTP/localhost}. */
  public Path serviceKeytab() {
    return keytabDirectory.resolve(SUPERUSER + ".keytab");
  }

  private static String knownUser(String user) {
    requireNonNull(user, "user is null");
    if (!USERS.contains(user)) {
      throw new IllegalArgumentException("no such user: " + user + " (there are " + USERS + ")");
    }
    return user;
  }

  public MiniDFSCluster source() {
    return source;
  }

  public MiniDFSCluster destination() {
    return destination;
  }

  /** {@code hdfs://localhost:port/path} on the source cluster ({@code hdfs://src/path}). */
  public URI sourceUri(String path) {
    return uri(source, path);
  }

  /** {@code hdfs://localhost:port/path} on the destination cluster ({@code hdfs://dst/path}). */
  public URI destinationUri(String path) {
    return uri(destination, path);
  }

  private URI uri(MiniDFSCluster cluster, String path) {
    requireNonNull(path, "path is null");
    if (highlyAvailable) {
      return URI.create("hdfs://"
          + (cluster == source ? SOURCE_NAMESERVICE : DESTINATION_NAMESERVICE) + path);
    }
    return URI.create(cluster.getURI().toString() + path);
  }

  /**
   * A new client configuration for both clusters: Hadoop's defaults with the client keys on
   * top ({@code fs.defaultFS} is the source cluster). The caller may change it freely.
   */
  public Configuration configuration() {
    Configuration configuration = new Configuration();
    for (Map.Entry<String, String> entry : clientKeys) {
      configuration.set(entry.getKey(), entry.getValue());
    }
    return configuration;
  }

  /**
   * Writes core-site.xml and hdfs-site.xml into {@code directory} (created if missing) with
   * the client keys alone, for a separate JVM: with the directory as HADOOP_CONF_DIR or on its
   * class path, and {@code -Djava.security.krb5.conf=}{@link #krb5Conf()}, it reaches both
   * clusters (and the source one by default) as whoever it logs in as.
   */
  public void writeConfigurationDirectory(Path directory) throws IOException {
    Files.createDirectories(directory);
    Configuration core = new Configuration(false);
    Configuration hdfs = new Configuration(false);
    for (Map.Entry<String, String> entry : clientKeys) {
      Configuration file = entry.getKey().startsWith("dfs.") ? hdfs : core;
      file.set(entry.getKey(), entry.getValue());
    }
    try (OutputStream out = Files.newOutputStream(directory.resolve("core-site.xml"))) {
      core.writeXml(out);
    }
    try (OutputStream out = Files.newOutputStream(directory.resolve("hdfs-site.xml"))) {
      hdfs.writeXml(out);
    }
  }

  /**
   * Runs {@code action} as {@code user} (one of {@link #USERS}), logged in from the user's
   * keytab: with a Kerberos ticket, as a user's own client would be. A user logs in once and
   * the login is reused, so FileSystem.get inside {@code action} shares instances across
   * calls; {@link #close()} closes them.
   */
  public <T> T asUser(String user, PrivilegedExceptionAction<T> action)
      throws IOException, InterruptedException {
    return login(principal(user), keytab(user)).doAs(action);
  }

  /** Runs {@code action} as the HDFS superuser hdfs, logged in from the service keytab. */
  public <T> T asSuperuser(PrivilegedExceptionAction<T> action)
      throws IOException, InterruptedException {
    return login(servicePrincipal(), serviceKeytab()).doAs(action);
  }

  private synchronized UserGroupInformation login(String principal, Path keytab)
      throws IOException {
    UserGroupInformation login = logins.get(principal);
    if (login == null) {
      login = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab.toString());
      logins.put(principal, login);
    }
    return login;
  }

  /**
   * Shuts both clusters down and stops the KDC, then resets UserGroupInformation to simple
   * authentication with no login user, so that a later test in the same JVM starts clean as
   * far as Hadoop allows (the JDK keeps the krb5.conf it has read).
   */
  @Override
  public void close() {
    try {
      synchronized (this) {
        for (UserGroupInformation login : logins.values()) {
          try {
            FileSystem.closeAllForUGI(login);
          } catch (IOException e) {
            // The clusters go down next; a client that cannot close cleanly changes nothing.
          }
        }
        logins.clear();
      }
    } finally {
      shutDown(source, destination, kdc);
    }
  }

  private static void shutDown(MiniDFSCluster source, MiniDFSCluster destination,
      MiniKdc kdc) {
    try {
      if (destination != null) {
        destination.shutdown();
      }
    } finally {
      try {
        if (source != null) {
          source.shutdown();
        }
      } finally {
        kdc.stop();
        UserGroupInformation.reset();
        UserGroupInformation.setConfiguration(new Configuration());
      }
    }
  }
}
