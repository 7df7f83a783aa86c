package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.transfer.PreservedAttribute;
import dev.relaycp.transfer.SnapshotRange;
import dev.relaycp.transfer.SyncOutcome;
import dev.relaycp.transfer.SyncSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Option;

/** Incremental sync as DistCp users run it: --update, --delete, -p, --filters, --diff. */
public final class SyncOptions {
  @Option(names = "--update",
      description = "Sync as DistCp -update: skip files whose target has the same length and"
          + " COMPOSITE_CRC checksum (and block size, when kept), replace the others; an"
          + " existing target is no error.")
  boolean update;

  @Option(names = "--delete",
      description = "With --update: remove what DST holds and SRC does not (to DST's trash where"
          + " it has one), as DistCp -delete.")
  boolean delete;

  @Option(names = {"-p", "--preserve"}, paramLabel = "rbugpaxt",
      description = "Attributes to keep, DistCp's -p letters: r replication, b block size, u"
          + " user, g group, p permission, a ACL, x XAttr, t times (default: rbugpt). E.g."
          + " -prbugpt, --preserve rbpt.")
  String preserve;

  @Option(names = "--filters", paramLabel = "FILE",
      description = "DistCp's filters file: one Java regex a line; a source path (its full URI)"
          + " that one matches whole is not copied.")
  Path filters;

  @Option(names = "--diff", arity = "2", paramLabel = "SNAPSHOT",
      description = "--diff FROM TO, with --update: copy only what SRC's HDFS snapshot diff from"
          + " FROM to TO names, replaying its renames and deletions on DST, which must hold"
          + " snapshot FROM and be unchanged since (DistCp -diff).")
  List<String> diff;

  /** These options, checked against each other and --overwrite. */
  @Option(names = "--atomic",
      description = "DST, which must not exist, appears whole by one rename once every file"
          + " is verified, as with DistCp's -atomic; not with --update or --overwrite")
  boolean atomic;

  SyncSettings settings(boolean overwrite) {
    if (atomic && (update || overwrite)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--atomic makes DST appear whole"
          + " and needs it not to exist; drop " + (update ? "--update" : "--overwrite")
          + " (DistCp's -atomic refuses them too)");
    }
    if (delete && !update) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--delete needs --update; add --update (DistCp's -delete needs -update too)");
    }
    if (diff != null && !update) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--diff needs --update; add --update (as DistCp's -diff needs -update)");
    }
    if (diff != null && delete) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--diff replays the snapshot"
          + " diff's own deletions; drop --delete");
    }
    if (update && overwrite) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--update already replaces the"
          + " files that differ; drop --overwrite");
    }
    Set<PreservedAttribute> kept = PreservedAttribute.DEFAULT;
    if (preserve != null) {
      String letters = preserve.strip();
      if (letters.isEmpty()) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--preserve needs letters"
            + " (rbugpaxt); e.g. -prbugpt for relaycp's default");
      }
      if (letters.toLowerCase(Locale.ROOT).contains("c")) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--preserve c (checksum type)"
            + " is not needed: relaycp compares COMPOSITE_CRC checksums, which do not depend on"
            + " it; drop the c");
      }
      try {
        kept = PreservedAttribute.fromLetters(letters);
      } catch (IllegalArgumentException e) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--preserve '" + letters + "': "
            + e.getMessage() + "; e.g. -prbugpt");
      }
    }
    Optional<SnapshotRange> range = Optional.empty();
    if (diff != null) {
      try {
        range = Optional.of(new SnapshotRange(diff.get(0), diff.get(1)));
      } catch (IllegalArgumentException e) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--diff FROM TO: "
            + e.getMessage() + "; name two snapshots of SRC");
      }
    }
    return new SyncSettings(update, delete, kept, filterPatterns(), range, atomic);
  }

  /** The --filters file's patterns, one a line; blank lines are skipped. */
  private List<Pattern> filterPatterns() {
    if (filters == null) {
      return List.of();
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(filters);
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--filters " + filters
          + " cannot be read (" + e.getMessage() + "); name a readable file of regexes");
    }
    List<Pattern> patterns = new ArrayList<>();
    for (int line = 0; line < lines.size(); line++) {
      String text = lines.get(line);
      if (text.isBlank()) {
        continue;
      }
      try {
        patterns.add(Pattern.compile(text));
      } catch (PatternSyntaxException e) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--filters " + filters
            + ": line " + (line + 1) + " is not a Java regex (" + e.getDescription()
            + "); fix or remove it");
      }
    }
    return patterns;
  }

  /** The text lines a sync adds after the copy's own line. */
  void report(SyncOutcome sync, PrintWriter out, PrintWriter err) {
    if (update || sync.deleted() > 0 || sync.renamed() > 0) {
      out.printf(Locale.ROOT, "Skipped %d files (%s) equal at the destination; deleted %d,"
              + " renamed %d.%n", sync.filesSkipped(), CopySummary.humanBytes(sync.bytesSkipped()),
          sync.deleted(), sync.renamed());
    }
    if (!sync.notPreserved().isEmpty()) {
      err.printf(Locale.ROOT, "relaycp: %d attributes not kept (e.g. %s of %s: %s); see"
              + " notPreserved in --json%n", sync.notPreserved().size(),
          sync.notPreserved().get(0).what(), sync.notPreserved().get(0).path(),
          sync.notPreserved().get(0).why());
    }
  }
}
