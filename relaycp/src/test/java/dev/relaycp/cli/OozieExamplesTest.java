package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.xml.sax.SAXException;

/** examples/oozie against the XSDs Oozie's client ships, which its server validates with. */
class OozieExamplesTest {
  static final Path EXAMPLES = Path.of("..", "examples", "oozie");

  static Schema schema(String name) throws SAXException {
    URL xsd = OozieExamplesTest.class.getClassLoader().getResource(name);
    assertThat(xsd).as("%s on the test class path (oozie-client)", name).isNotNull();
    return SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(xsd);
  }

  static void validate(String file, String xsd) throws Exception {
    schema(xsd).newValidator().validate(new StreamSource(EXAMPLES.resolve(file).toFile()));
  }

  @Test
  void theWorkflowValidatesAgainstWorkflowSchemaOneZero() throws Exception {
    validate("workflow.xml", "oozie-workflow-1.0.xsd");
    assertThat(Files.readString(EXAMPLES.resolve("workflow.xml")))
        .contains("<main-class>dev.relaycp.cli.Main</main-class>")
        .contains("<capture-output/>");
  }

  @Test
  void theCoordinatorValidatesAgainstCoordinatorSchemaZeroFive() throws Exception {
    validate("coordinator.xml", "oozie-coordinator-0.5.xsd");
  }

  @Test
  void theSchemasRefuseAWorkflowThatIsWrong() throws Exception {
    Path broken = Files.createTempFile("workflow-", ".xml");
    try {
      Files.writeString(broken, Files.readString(EXAMPLES.resolve("workflow.xml"))
          .replace("<capture-output/>", "<capture-output/><main-class>again</main-class>"));
      assertThatThrownBy(() -> schema("oozie-workflow-1.0.xsd").newValidator()
          .validate(new StreamSource(broken.toFile()))).isInstanceOf(SAXException.class);
    } finally {
      Files.deleteIfExists(broken);
    }
  }

  @Test
  void jobPropertiesNameTheApplicationAndEveryParameterTheXmlUses() throws Exception {
    Properties job = new Properties();
    try (var in = Files.newInputStream(EXAMPLES.resolve("job.properties"))) {
      job.load(in);
    }
    assertThat(job).containsKeys("nameNode", "resourceManager", "oozie.coord.application.path",
        "workflowPath", "start", "end", "sourceRoot", "destinationRoot");
  }
}
