package dev.relaycp.provision;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The program that makes a relays' class-data archive ({@link ClassDataArchive}): run in a JVM
 * started with {@code -XX:ArchiveClassesAtExit}, it loads, without initializing, every class
 * that a relay's class list names ({@code -XX:DumpLoadedClassList}), and the JVM archives them
 * as it exits. Its JIT compiles the class loaders' own code as a relay's does, where
 * {@code -Xshare:dump} runs interpreted. The list's lambda lines ({@code @lambda-proxy},
 * {@code @lambda-form-invoker}) and classes that no longer load are passed over.
 *
 * <p>It lives in the relay jar, which leads a relay's class path, so that the archive's class
 * path is the relays' own.
 */
public final class ClassListLoader {
  private ClassListLoader() {}

  /** {@code ClassListLoader CLASS_LIST}. */
  public static void main(String[] arguments) throws IOException {
    if (arguments.length != 1) {
      throw new IllegalArgumentException("expected one argument, the class list; got "
          + arguments.length);
    }
    ClassLoader loader = ClassLoader.getSystemClassLoader();
    for (String line : Files.readAllLines(Path.of(arguments[0]), StandardCharsets.UTF_8)) {
      if (line.isEmpty() || line.startsWith("#") || line.startsWith("@")) {
        continue;
      }
      int end = line.indexOf(' ');
      String name = (end < 0 ? line : line.substring(0, end)).replace('/', '.');
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        // A class the relay made at run time (a proxy), or one a changed jar no longer has:
        // the archive goes without it.
      }
    }
  }
}
