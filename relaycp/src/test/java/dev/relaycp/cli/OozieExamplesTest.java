package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/**
 * examples/oozie against the workflow and coordinator XSDs that Oozie 5.2.1 ships in its
 * client jar (the ones {@code oozie validate} uses), each file chosen by its namespace.
 */
class OozieExamplesTest {
  /** The schema of each Oozie namespace the examples use, by its file in oozie-client. */
  static final Map<String, String> SCHEMAS = Map.of(
      "uri:oozie:workflow:1.0", "oozie-workflow-1.0.xsd",
      "uri:oozie:coordinator:0.5", "oozie-coordinator-0.5.xsd");

  static Path examples() {
    return Path.of(System.getProperty("relaycp.project.root"), "examples", "oozie");
  }

  static Schema schema(String namespace) throws SAXException {
    String file = SCHEMAS.get(namespace);
    assertThat(file).as("an Oozie schema for namespace " + namespace).isNotNull();
    // From the jar itself, so that xs:include (oozie-common-1.0.xsd) resolves beside it.
    URL resource = OozieExamplesTest.class.getClassLoader().getResource(file);
    assertThat(resource).as(file + " in oozie-client").isNotNull();
    assertThat(resource.toString()).contains("oozie-client-5.2.1.jar");
    return SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(resource);
  }

  static Document parse(String xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder()
        .parse(new org.xml.sax.InputSource(new StringReader(xml)));
  }

  static void validate(String xml) throws Exception {
    String namespace = parse(xml).getDocumentElement().getNamespaceURI();
    schema(namespace).newValidator().validate(new StreamSource(new StringReader(xml)));
  }

  static List<Path> xmlFiles() throws IOException {
    try (Stream<Path> files = Files.walk(examples())) {
      return files.filter(file -> file.toString().endsWith(".xml")).sorted().toList();
    }
  }

  @Test
  void everyXmlValidatesAgainstOoziesSchemas() throws Exception {
    List<Path> files = xmlFiles();

    assertThat(files).extracting(file -> file.getFileName().toString())
        .contains("workflow.xml", "coordinator.xml");
    for (Path file : files) {
      validate(Files.readString(file));
    }
  }

  @Test
  void theSchemasRejectAJavaActionWithoutItsMainClass() throws Exception {
    String workflow = Files.readString(examples().resolve("workflow.xml"));
    String broken = workflow.replaceAll("<main-class>[^<]*</main-class>", "");
    assertThat(broken).isNotEqualTo(workflow);

    assertThatThrownBy(() -> validate(broken)).isInstanceOf(SAXException.class)
        .hasMessageContaining("main-class");
  }

  @Test
  void theCopyActionRunsRelaycpsMainAndCapturesItsOutput() throws Exception {
    Document workflow = parse(Files.readString(examples().resolve("workflow.xml")));
    String ns = "uri:oozie:workflow:1.0";

    var java = workflow.getElementsByTagNameNS(ns, "java");
    assertThat(java.getLength()).isEqualTo(1);
    var action = (org.w3c.dom.Element) java.item(0);
    assertThat(action.getElementsByTagNameNS(ns, "main-class").item(0).getTextContent())
        .isEqualTo(Main.class.getName());
    assertThat(action.getElementsByTagNameNS(ns, "capture-output").getLength()).isEqualTo(1);
    assertThat(action.getElementsByTagNameNS(ns, "arg").item(0).getTextContent())
        .isEqualTo("copy");
  }

  @Test
  void everyVariableTheFilesUseIsDefined() throws Exception {
    Set<String> defined = new TreeSet<>(List.of("user.name"));
    for (String properties : List.of("job.properties", "coordinator.properties")) {
      Properties values = new Properties();
      try (var in = Files.newBufferedReader(examples().resolve(properties))) {
        values.load(in);
      }
      defined.addAll(values.stringPropertyNames());
    }
    // The workflow's parameters, set by job.properties or by the coordinator.
    defined.addAll(List.of("source", "destination"));
    Pattern variable = Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9_.]*)}");
    Set<String> undefined = new TreeSet<>();
    List<Path> files;
    try (Stream<Path> listed = Files.list(examples())) {
      files = listed.filter(file -> file.toString().endsWith(".xml")
          || file.toString().endsWith(".properties")).toList();
    }
    assertThat(files).hasSize(4);
    for (Path file : files) {
      Matcher uses = variable.matcher(Files.readString(file));
      while (uses.find()) {
        if (!defined.contains(uses.group(1))) {
          undefined.add(file.getFileName() + ": " + uses.group(1));
        }
      }
    }

    assertThat(undefined).isEmpty();
  }
}
