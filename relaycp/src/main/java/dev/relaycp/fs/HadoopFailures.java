package dev.relaycp.fs;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;

/**
 * Classifies Hadoop's exceptions into relaycp's error codes, unwrapping the {@link
 * RemoteException}s a NameNode sends back, so no caller has to dig through causes.
 */
public final class HadoopFailures {
  private HadoopFailures() {}

  /**
   * The exception to throw for {@code failure}, which happened while doing {@code what} (a
   * phrase such as "reading hdfs://nn/a").
   */
  public static RelayCpException translate(IOException failure, String what) {
    IOException cause = failure instanceof RemoteException remote
        ? remote.unwrapRemoteException()
        : failure;
    String detail = firstLine(cause.getMessage());
    ErrorCode code;
    if (cause instanceof FileNotFoundException) {
      code = ErrorCode.SOURCE_NOT_FOUND;
    } else if (cause instanceof AccessControlException) {
      code = ErrorCode.PERMISSION_DENIED;
    } else if (cause instanceof FileAlreadyExistsException) {
      code = ErrorCode.TARGET_EXISTS;
    } else if (isUnreachable(cause)) {
      code = ErrorCode.CLUSTER_UNREACHABLE;
    } else if (cause instanceof InterruptedIOException
        && !(cause instanceof SocketTimeoutException)) {
      code = ErrorCode.INTERRUPTED;
    } else {
      code = ErrorCode.IO_ERROR;
    }
    return new RelayCpException(code, what + " failed: " + detail, failure);
  }

  private static boolean isUnreachable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException
          || cause instanceof NoRouteToHostException
          || cause instanceof UnknownHostException
          || cause instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  public static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "(no detail)";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
