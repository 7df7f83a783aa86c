package dev.relaycp.provision.spawn;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The start-up script (user-data) of a spawned relay host, from a template: the built-in {@code
 * relay-user-data.sh} beside this class, or a user's file ({@code
 * relaycp.spawn.aws.user-data-template}). The template's comment lists the placeholders. Each
 * {@code {{name}}} becomes one single-quoted shell word, except {@code {{relay_command}}}, put
 * in as set. The values are never the secret: the script reads it from SSM.
 */
public record Ec2UserData(String template) {
  public static final String BUILT_IN = "relay-user-data.sh";
  /** EC2 refuses user-data over 16 KiB (before base64). */
  public static final int MAXIMUM_BYTES = 16 * 1024;
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");
  private static final String RAW = "relay_command";

  public Ec2UserData {
    requireNonNull(template, "template is null");
  }

  /** The user's template file, else the built-in one. */
  public static Ec2UserData load(Optional<Path> file) {
    requireNonNull(file, "file is null");
    if (file.isPresent()) {
      try {
        return new Ec2UserData(Files.readString(file.get(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot read the user-data"
            + " template " + file.get() + " (" + Ec2Settings.USER_DATA_TEMPLATE + "): "
            + e.getMessage());
      }
    }
    try (InputStream in = Ec2UserData.class.getResourceAsStream(BUILT_IN)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks " + BUILT_IN + " beside "
            + Ec2UserData.class.getName());
      }
      return new Ec2UserData(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the built-in " + BUILT_IN, e);
    }
  }

  /** The values a host's script is made with; see the template's comment. */
  public static Map<String, String> values(String region, String parameter,
      String identityParameter, int port, String heartbeat, long driverTimeoutSeconds,
      SpawnSlot slot, String relayCommand) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("region", region);
    values.put("parameter", parameter);
    values.put("tls_parameter", identityParameter);
    values.put("port", Integer.toString(port));
    values.put("heartbeat", heartbeat);
    values.put("driver_timeout_seconds", Long.toString(driverTimeoutSeconds));
    values.put("transfer", slot.transferId());
    values.put("site", slot.site());
    values.put("slot", Integer.toString(slot.slot()));
    values.put(RAW, relayCommand);
    return values;
  }

  /** The script with every placeholder replaced; an unknown placeholder is a user error. */
  public String render(Map<String, String> values) {
    requireNonNull(values, "values is null");
    Matcher matcher = PLACEHOLDER.matcher(template);
    StringBuilder script = new StringBuilder();
    while (matcher.find()) {
      String name = matcher.group(1);
      String value = values.get(name);
      if (value == null) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the user-data template has an"
            + " unknown placeholder {{" + name + "}}; use one of " + values.keySet());
      }
      matcher.appendReplacement(script,
          Matcher.quoteReplacement(RAW.equals(name) ? value : shellWord(value)));
    }
    matcher.appendTail(script);
    if (script.toString().getBytes(StandardCharsets.UTF_8).length > MAXIMUM_BYTES) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the user-data script is over "
          + MAXIMUM_BYTES + " bytes, which EC2 refuses; shorten the template");
    }
    return script.toString();
  }

  /** The script, rendered, in base64 as RunInstances takes it. */
  public String renderBase64(Map<String, String> values) {
    return Base64.getEncoder().encodeToString(render(values).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code value} as one single-quoted shell word. */
  static String shellWord(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
