package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.provision.ImageClassDataArchive.ClassPath;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageClassDataArchiveTest {
  @TempDir Path temporary;

  /**
   * The archive covers jars only and a class path must begin with them: the product jar first,
   * each jar once, configuration folders after every jar, missing entries left out.
   */
  @Test
  void theClassPathLeadsWithTheJarsAndEndsWithTheFolders() throws IOException {
    Path product = Files.createFile(temporary.resolve("relaycp.jar"));
    Path conf = Files.createDirectory(temporary.resolve("conf"));
    Path common = Files.createFile(temporary.resolve("hadoop-common.jar"));
    Path hdfs = Files.createFile(temporary.resolve("hadoop-hdfs-client.jar"));
    String javaClassPath = String.join(File.pathSeparator, conf.toString(), common.toString(),
        product.toString(), temporary.resolve("gone.jar").toString(), "", hdfs.toString(),
        common.toString());

    ClassPath classPath = ClassPath.of(product, javaClassPath);

    assertThat(classPath.jars()).containsExactly(product, common, hdfs);
    assertThat(classPath.folders()).containsExactly(conf);
    assertThat(classPath.all()).isEqualTo(String.join(File.pathSeparator, product.toString(),
        common.toString(), hdfs.toString(), conf.toString()));
  }

  /** The java launcher reads an argument file's quoted words with backslash escapes. */
  @Test
  void argumentFileWordsAreQuoted() {
    assertThat(ImageClassDataArchive.quoted("/opt/relay cp/a.jar"))
        .isEqualTo("\"/opt/relay cp/a.jar\"");
    assertThat(ImageClassDataArchive.quoted("C:\\jars\\\"odd\""))
        .isEqualTo("\"C:\\\\jars\\\\\\\"odd\\\"\"");
  }
}
