package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.transfer.SourceTree.SourceDirectory;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves verified, staged files to their final names and gives files and directories the
 * attributes the copy keeps ({@link PreservedAttribute}: permissions, owner and group, times,
 * ACLs, extended attributes). One that this user may not set (an owner, unless superuser) is
 * recorded as {@link NotPreserved} and the commit goes on. If a step
 * fails, what this commit created is removed again, so a failed copy leaves nothing under the
 * destination's final names (files it replaced with {@code --overwrite} stay replaced).
 *
 * <p>A file's attributes are set while it is still staged (a rename keeps them), then it is
 * renamed; files are committed by several threads at once, since for many small files the
 * commit is a few namenode calls per file and one after another they add up.
 */
final class Committer {
  private static final Logger LOG = LoggerFactory.getLogger(Committer.class);

  private final FileSystem fileSystem;
  private final FileContext fileContext;
  private final boolean overwrite;
  private final Set<PreservedAttribute> preserve;
  /** Where ACLs and extended attributes are read from, when kept. */
  private final FileSystem source;
  private final AtomicBoolean ownerWarned = new AtomicBoolean();
  private final List<NotPreserved> notPreserved = Collections.synchronizedList(new ArrayList<>());

  Committer(FileSystem fileSystem, boolean overwrite) {
    this(fileSystem, overwrite, PreservedAttribute.DEFAULT, fileSystem);
  }

  Committer(FileSystem fileSystem, boolean overwrite, Set<PreservedAttribute> preserve,
      FileSystem source) {
    this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    this.overwrite = overwrite;
    this.preserve = Set.copyOf(requireNonNull(preserve, "preserve is null"));
    this.source = requireNonNull(source, "source is null");
    try {
      this.fileContext = FileContext.getFileContext(fileSystem.getUri(), fileSystem.getConf());
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "opening " + fileSystem.getUri());
    }
  }

  /** Where a source entry lands. */
  static Path finalPath(Path destinationRoot, String relativePath) {
    return relativePath.isEmpty() ? destinationRoot : new Path(destinationRoot, relativePath);
  }

  /**
   * Fails naming the first target file that exists, unless overwriting. Each destination
   * directory the tree maps to is listed once, rather than asking about every file.
   */
  void checkTargets(SourceTree tree, Path destinationRoot) {
    if (overwrite) {
      return;
    }
    Map<Path, Set<String>> listed = new HashMap<>();
    for (SourceFile file : tree.files()) {
      Path target = finalPath(destinationRoot, file.relativePath());
      Path parent = target.getParent();
      Set<String> names = listed.computeIfAbsent(parent, this::namesIn);
      if (names.contains(target.getName())) {
        throw new RelayCpException(ErrorCode.TARGET_EXISTS,
            "target " + target + " exists; pass --overwrite to replace it");
      }
    }
  }

  /** The names in a directory; none if it does not exist (or is a file, which commit reports). */
  private Set<String> namesIn(Path directory) {
    try {
      Set<String> names = new HashSet<>();
      for (FileStatus status : fileSystem.listStatus(directory)) {
        names.add(status.getPath().getName());
      }
      return names;
    } catch (FileNotFoundException e) {
      return Set.of();
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "checking " + directory);
    }
  }

  /** What could not be kept, in no particular order. */
  List<NotPreserved> notPreserved() {
    synchronized (notPreserved) {
      return List.copyOf(notPreserved);
    }
  }

  /**
   * Gives a target the copy left in place ({@code --update} found it equal) the source's
   * attributes, as DistCp does for the files it skips.
   */
  void refreshSkipped(SourceFile file, Path target) {
    try {
      if (preserve.contains(PreservedAttribute.REPLICATION)
          && fileSystem.getFileStatus(target).getReplication() != file.replication()) {
        fileSystem.setReplication(target, file.replication());
      }
      applyAttributes(target, target, file.attributes(), new Path(file.uri()));
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "setting the attributes of " + target);
    }
  }

  /**
   * @param sourceRoot the listed source root, which the tree's relative paths are below (for
   *     reading the ACLs and extended attributes of directories)
   */
  void commit(SourceTree tree, Path sourceRoot, Path destinationRoot, List<URI> stagedFiles,
      ExecutorService pool, int parallelism) throws InterruptedException {
    List<Path> createdDirectories = new ArrayList<>();
    List<Path> placedFiles = Collections.synchronizedList(new ArrayList<>());
    try {
      ensureDirectory(destinationRoot.getParent(), createdDirectories);
      for (SourceDirectory directory : tree.directories()) {
        ensureDirectory(finalPath(destinationRoot, directory.relativePath()), createdDirectories);
      }
      Map<String, FileStatus> stagedStatus = statusOfStaged(stagedFiles);
      try {
        ParallelSteps.forEachIndex(pool, tree.files().size(), parallelism, index -> {
          Path staged = new Path(stagedFiles.get(index));
          commitFile(tree.files().get(index), staged,
              stagedStatus.get(staged.toUri().getPath()), destinationRoot, placedFiles);
          return null;
        });
      } catch (ExecutionException e) {
        throwCause(e);
      }
      // Deepest first: setting a directory's times before its children land would not stick.
      for (int index = tree.directories().size() - 1; index >= 0; index--) {
        SourceDirectory directory = tree.directories().get(index);
        Path target = finalPath(destinationRoot, directory.relativePath());
        applyAttributes(target, target, directory.attributes(),
            finalPath(sourceRoot, directory.relativePath()));
      }
    } catch (FileAlreadyExistsException e) {
      undo(placedFiles, createdDirectories);
      throw new RelayCpException(ErrorCode.TARGET_EXISTS,
          HadoopFailures.translate(e, "commit").getMessage()
              + "; pass --overwrite to replace existing files", e);
    } catch (IOException e) {
      undo(placedFiles, createdDirectories);
      throw HadoopFailures.translate(e, "committing into " + destinationRoot);
    } catch (RuntimeException | InterruptedException e) {
      undo(placedFiles, createdDirectories);
      throw e;
    }
  }

  /**
   * Renames {@code whole}, a tree committed in the staging directory, to {@code target} in one
   * step (creating {@code target}'s parent first); {@code target} must not exist.
   */
  void renameWhole(Path whole, Path target) {
    List<Path> createdDirectories = new ArrayList<>();
    try {
      ensureDirectory(target.getParent(), createdDirectories);
      fileContext.rename(whole, target, Options.Rename.NONE);
    } catch (FileAlreadyExistsException e) {
      undo(List.of(), createdDirectories);
      throw new RelayCpException(ErrorCode.TARGET_EXISTS, "DST " + target + " appeared while"
          + " the copy ran; --atomic needs it not to exist, so nothing was committed", e);
    } catch (IOException e) {
      undo(List.of(), createdDirectories);
      throw HadoopFailures.translate(e, "renaming the copied tree to " + target);
    }
  }

  /**
   * The staged files' status, by path, from one listing of each folder that holds more than
   * one of them (a tree of small files stages them side by side): a file whose permission,
   * owner or times already are its source's is then not given them again, which for many small
   * files spares the namenode three calls of the four a file's commit makes (and those across
   * the WAN, where the driver runs on the other side). Files in folders of their
   * own are not listed, and get every call.
   */
  private Map<String, FileStatus> statusOfStaged(List<URI> stagedFiles) throws IOException {
    Map<Path, Integer> perFolder = new HashMap<>();
    for (URI staged : stagedFiles) {
      perFolder.merge(new Path(staged).getParent(), 1, Integer::sum);
    }
    Map<String, FileStatus> status = new HashMap<>();
    for (Map.Entry<Path, Integer> folder : perFolder.entrySet()) {
      if (folder.getValue() > 1) {
        RemoteIterator<FileStatus> listed = fileSystem.listStatusIterator(folder.getKey());
        while (listed.hasNext()) {
          FileStatus entry = listed.next();
          status.put(entry.getPath().toUri().getPath(), entry);
        }
      }
    }
    return status;
  }

  /** @param stagedStatus the staged file's status, if listed; null to set every attribute */
  private void commitFile(SourceFile file, Path staged, FileStatus stagedStatus,
      Path destinationRoot, List<Path> placedFiles) throws IOException {
    Path target = finalPath(destinationRoot, file.relativePath());
    applyAttributes(staged, target, file.attributes(), new Path(file.uri()), stagedStatus);
    fileContext.rename(staged, target, overwrite ? Options.Rename.OVERWRITE : Options.Rename.NONE);
    placedFiles.add(target);
  }

  /** Throws a failed file's cause as the commit's own failure, for its catch clauses. */
  private static void throwCause(ExecutionException failed) throws IOException {
    Throwable cause = failed.getCause();
    if (cause instanceof IOException io) {
      throw io;
    }
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new IOException(cause);
  }

  private void ensureDirectory(Path directory, List<Path> created) throws IOException {
    if (directory == null) {
      return;
    }
    List<Path> missing = new ArrayList<>();
    for (Path at = directory; at != null && !fileSystem.exists(at); at = at.getParent()) {
      missing.add(0, at);
    }
    for (Path at : missing) {
      if (!fileSystem.mkdirs(at)) {
        throw new IOException("could not create directory " + at);
      }
      created.add(at);
    }
  }

  private void applyAttributes(Path target, Path finalTarget, FileAttributes attributes,
      Path sourcePath) throws IOException {
    applyAttributes(target, finalTarget, attributes, sourcePath, null);
  }

  /**
   * @param target where to set them (a staged file keeps them through its rename)
   * @param finalTarget the name {@link NotPreserved} reports
   * @param current the target's status, where known: what it already has is not set again
   */
  private void applyAttributes(Path target, Path finalTarget, FileAttributes attributes,
      Path sourcePath, FileStatus current) throws IOException {
    boolean acl = preserve.contains(PreservedAttribute.ACL);
    boolean permissionSet = current != null && !current.hasAcl()
        && current.getPermission().equals(attributes.permission());
    if ((preserve.contains(PreservedAttribute.PERMISSION) || acl) && !permissionSet) {
      attempt(finalTarget, "permission",
          () -> fileSystem.setPermission(target, attributes.permission()));
    }
    if (acl) {
      attempt(finalTarget, "acl", () -> {
        List<AclEntry> entries = source.getAclStatus(sourcePath).getEntries();
        if (!entries.isEmpty()) {
          fileSystem.setAcl(target,
              AclUtil.getAclFromPermAndEntries(attributes.permission(), entries));
        }
      });
    }
    if (preserve.contains(PreservedAttribute.XATTR)) {
      attempt(finalTarget, "xattr", () -> {
        for (Map.Entry<String, byte[]> xattr : source.getXAttrs(sourcePath).entrySet()) {
          // raw.* belongs to the file system (e.g. encryption); it is not the user's to copy.
          if (!xattr.getKey().startsWith("raw.")) {
            fileSystem.setXAttr(target, xattr.getKey(), xattr.getValue());
          }
        }
      });
    }
    boolean user = preserve.contains(PreservedAttribute.USER);
    boolean group = preserve.contains(PreservedAttribute.GROUP);
    boolean ownerSet = current != null
        && (!user || current.getOwner().equals(attributes.owner()))
        && (!group || current.getGroup().equals(attributes.group()));
    if ((user || group) && !ownerSet) {
      String what = user && group ? "user,group" : user ? "user" : "group";
      attempt(finalTarget, what, () -> fileSystem.setOwner(target,
          user ? attributes.owner() : null, group ? attributes.group() : null));
    }
    // A writer relay of this build gave a file of one chunk its times as it wrote it.
    boolean timesSet = current != null
        && current.getModificationTime() == attributes.modificationTime()
        && current.getAccessTime() == attributes.accessTime();
    if (preserve.contains(PreservedAttribute.TIMES) && !timesSet) {
      attempt(finalTarget, "times", () -> fileSystem.setTimes(target,
          attributes.modificationTime(), attributes.accessTime()));
    }
  }

  /** One file system call that sets an attribute. */
  private interface AttributeCall {
    void run() throws IOException;
  }

  /**
   * Runs {@code call}; a refusal (this user may not set it, or the file system does not keep
   * it) is recorded rather than failing the copy, which has already verified the bytes.
   */
  private void attempt(Path reported, String what, AttributeCall call) throws IOException {
    try {
      call.run();
    } catch (AccessControlException | UnsupportedOperationException e) {
      String why = HadoopFailures.firstLine(String.valueOf(e.getMessage()));
      notPreserved.add(new NotPreserved(reported.toUri().getPath(), what, why));
      if (ownerWarned.compareAndSet(false, true)) {
        LOG.warn("Not kept: {} of {} and maybe others (see notPreserved in the summary): {}",
            what, reported, why);
      }
    } catch (RemoteException e) {
      IOException unwrapped = e.unwrapRemoteException(AccessControlException.class);
      if (!(unwrapped instanceof AccessControlException)) {
        throw e;
      }
      notPreserved.add(new NotPreserved(reported.toUri().getPath(), what,
          HadoopFailures.firstLine(String.valueOf(unwrapped.getMessage()))));
    }
  }

  private void undo(List<Path> placedFiles, List<Path> createdDirectories) {
    if (!overwrite) {
      for (Path file : placedFiles) {
        deleteQuietly(file, false);
      }
    }
    for (int index = createdDirectories.size() - 1; index >= 0; index--) {
      deleteQuietly(createdDirectories.get(index), true);
    }
  }

  private void deleteQuietly(Path path, boolean recursive) {
    BestEffortDelete.delete(fileSystem, path, recursive, "after a failed commit,");
  }
}
