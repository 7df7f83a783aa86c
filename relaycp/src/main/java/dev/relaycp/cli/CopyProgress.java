package dev.relaycp.cli;

import dev.relaycp.transfer.TransferProgress;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws a copy's progress on the terminal's standard error: bytes, rate, ETA and the routes
 * still active. Draws nothing when disabled or when there is no terminal.
 */
public final class CopyProgress implements TransferProgress.Listener, AutoCloseable {
  private final ProgressBar bar;

  private CopyProgress(ProgressBar bar) {
    this.bar = bar;
  }

  public static CopyProgress start(boolean wanted) {
    if (!wanted || System.console() == null) {
      return new CopyProgress(null);
    }
    return new CopyProgress(new ProgressBarBuilder()
        .setTaskName("relaycp")
        .setInitialMax(0)
        .setUnit(" MB", 1_000_000)
        .showSpeed()
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(500)
        .setConsumer(new ConsoleProgressBarConsumer(System.err))
        .build());
  }

  @Override
  public void update(TransferProgress progress) {
    if (bar == null) {
      return;
    }
    synchronized (bar) {
      bar.maxHint(progress.bytesTotal());
      bar.stepTo(progress.bytesDone());
      bar.setExtraMessage(" " + progress.phase() + ", routes " + progress.routesActive()
          + (progress.routesStalled() > 0 ? " (" + progress.routesStalled() + " stalled)" : "")
          + (progress.chunksResent() > 0 ? ", re-sent " + progress.chunksResent() : ""));
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
