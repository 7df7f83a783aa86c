package dev.relaycp.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.relaycp.transfer.CopyReport;
import dev.relaycp.transfer.NotPreserved;
import dev.relaycp.transfer.ResumeOutcome;
import dev.relaycp.transfer.RouteResult;
import dev.relaycp.transfer.SyncOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A finished copy as the JSON summary (field names as documented) and as one line of text. */
public final class CopySummary {
  private CopySummary() {}

  static Map<String, Object> of(CopyReport result) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("source", result.source());
    summary.put("destination", result.destination());
    summary.put("bytes", result.bytes());
    summary.put("wireBytes", result.wireBytes());
    summary.put("files", result.files());
    summary.put("directories", result.directories());
    summary.put("seconds", result.seconds());
    summary.put("mbPerSecond", result.megabytesPerSecond());
    summary.put("provisioner", result.provisioner());
    summary.put("relaysStarted", result.relaysStarted());
    summary.put("relays", 2 * result.routes());
    summary.put("routes", result.routes());
    summary.put("localReadFraction", result.localReadFraction());
    summary.put("routesDropped", result.routesDropped());
    summary.put("chunks", result.chunks());
    summary.put("phaseSeconds", result.phaseSeconds());
    summary.put("chunksResent", result.chunksResent());
    summary.put("verified", result.allVerified());
    summary.put("verification", result.verification());
    List<Map<String, Object>> routeRates = new ArrayList<>();
    for (RouteResult route : result.routeResults()) {
      Map<String, Object> rate = new LinkedHashMap<>();
      rate.put("route", route.routeId());
      rate.put("reader", route.reader().toString());
      rate.put("writer", route.writer().toString());
      rate.put("bytes", route.bytes());
      rate.put("wireBytes", route.wireBytes());
      rate.put("chunks", route.chunks());
      rate.put("busySeconds", route.busySeconds());
      rate.put("mbPerSecond", route.bytesPerSecond() / 1e6);
      rate.put("dropped", route.dropped());
      rate.put("joinedSeconds", route.joinedSeconds());
      routeRates.add(rate);
    }
    summary.put("routeRates", routeRates);
    SyncOutcome sync = result.sync();
    summary.put("skipped", sync.filesSkipped());
    summary.put("skippedBytes", sync.bytesSkipped());
    summary.put("deleted", sync.deleted());
    summary.put("renamed", sync.renamed());
    List<Map<String, Object>> notPreserved = new ArrayList<>();
    for (NotPreserved missing : sync.notPreserved()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", missing.path());
      entry.put("what", missing.what());
      entry.put("why", missing.why());
      notPreserved.add(entry);
    }
    summary.put("notPreserved", notPreserved);
    ResumeOutcome resume = result.resume();
    summary.put("resumed", resume.resumed());
    summary.put("run", resume.run());
    summary.put("bytesReused", resume.bytesReused());
    summary.put("chunksReused", resume.chunksReused());
    summary.put("filesCommittedEarlier", resume.filesCommittedEarlier());
    return summary;
  }

  static String line(CopyReport result) {
    String line = String.format(Locale.ROOT, "Copied %d files (%s) in %.1f s: %.1f MB/s over"
            + " %d routes; %d chunks re-sent; all %d files verified (COMPOSITE_CRC).",
        result.files(), humanBytes(result.bytes()), result.seconds(),
        result.megabytesPerSecond(), result.routes() - result.routesDropped(),
        result.chunksResent(), result.verification().size());
    ResumeOutcome resume = result.resume();
    if (resume.resumed()) {
      line += String.format(Locale.ROOT, " Resumed an earlier run: %s reused (%d chunks staged,"
              + " %d files committed) and not sent again.", humanBytes(resume.bytesReused()),
          resume.chunksReused(), resume.filesCommittedEarlier());
    }
    return line;
  }

  public static ObjectMapper jsonMapper() {
    return new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  }

  static String humanBytes(long bytes) {
    if (bytes < 1_000_000) {
      return bytes + " bytes";
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
