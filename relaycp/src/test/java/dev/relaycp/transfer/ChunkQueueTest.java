package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChunkQueueTest {
  private static final long WAIT_SECONDS = 10;

  private final ExecutorService executor = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() throws InterruptedException {
    executor.shutdownNow();
    assertThat(executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  private static List<Chunk> chunks(int count) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      chunks.add(new Chunk(i, 0, i, count, i * 10L, 10));
    }
    return chunks;
  }

  private CompletableFuture<Chunk> takeInBackground(ChunkQueue queue, CountDownLatch started) {
    CompletableFuture<Chunk> taken = new CompletableFuture<>();
    executor.execute(() -> {
      started.countDown();
      try {
        taken.complete(queue.take());
      } catch (Throwable e) {
        taken.completeExceptionally(e);
      }
    });
    return taken;
  }

  @Test
  void chunksAreHandedOutInOrder() throws InterruptedException {
    List<Chunk> chunks = chunks(5);
    ChunkQueue queue = new ChunkQueue(chunks);

    for (Chunk expected : chunks) {
      assertThat(queue.take()).isEqualTo(expected);
    }
    assertThat(queue.unfinished()).isEqualTo(5);
  }

  @Test
  void requeuedChunkComesBackFirst() throws InterruptedException {
    List<Chunk> chunks = chunks(4);
    ChunkQueue queue = new ChunkQueue(chunks);
    Chunk first = queue.take();
    Chunk second = queue.take();

    queue.requeue(second);

    assertThat(queue.take()).isEqualTo(second);
    assertThat(queue.take()).isEqualTo(chunks.get(2));
    assertThat(first).isEqualTo(chunks.get(0));
  }

  @Test
  void emptyQueueIsCompleteAtOnce() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of());

    assertThat(queue.take()).isNull();
    assertThat(queue.awaitCompletion(0, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void takeWaitsWhileEveryChunkIsInFlightAndGetsNullWhenTheLastIsDone() throws Exception {
    List<Chunk> chunks = chunks(2);
    ChunkQueue queue = new ChunkQueue(chunks);
    Chunk first = queue.take();
    Chunk second = queue.take();
    CountDownLatch started = new CountDownLatch(1);

    CompletableFuture<Chunk> taken = takeInBackground(queue, started);
    assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    queue.done(first);
    assertThat(taken).isNotDone();
    queue.done(second);

    assertThat(taken.get(WAIT_SECONDS, TimeUnit.SECONDS)).isNull();
    assertThat(queue.unfinished()).isZero();
  }

  @Test
  void waitingTakerGetsARequeuedChunk() throws Exception {
    ChunkQueue queue = new ChunkQueue(chunks(1));
    Chunk only = queue.take();
    CountDownLatch started = new CountDownLatch(1);

    CompletableFuture<Chunk> taken = takeInBackground(queue, started);
    assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    queue.requeue(only);

    assertThat(taken.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(only);
  }

  @Test
  void failWakesWaitingTakersWithNull() throws Exception {
    ChunkQueue queue = new ChunkQueue(chunks(1));
    queue.take();
    CountDownLatch started = new CountDownLatch(3);
    List<CompletableFuture<Chunk>> takers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      takers.add(takeInBackground(queue, started));
    }
    assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    queue.fail(new RelayCpException(ErrorCode.NO_ROUTES_LEFT, "every route failed"));

    for (CompletableFuture<Chunk> taker : takers) {
      assertThat(taker.get(WAIT_SECONDS, TimeUnit.SECONDS)).isNull();
    }
  }

  @Test
  void takeAfterFailureIsNullEvenWithChunksWaiting() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(chunks(3));

    queue.fail(new RelayCpException(ErrorCode.IO_ERROR, "boom"));

    assertThat(queue.take()).isNull();
  }

  @Test
  void awaitCompletionThrowsTheFirstFailure() {
    ChunkQueue queue = new ChunkQueue(chunks(3));
    RelayCpException first = new RelayCpException(ErrorCode.NO_ROUTES_LEFT, "first");

    queue.fail(first);
    queue.fail(new RelayCpException(ErrorCode.IO_ERROR, "second"));

    assertThatThrownBy(() -> queue.awaitCompletion(WAIT_SECONDS, TimeUnit.SECONDS))
        .isSameAs(first);
  }

  @Test
  void failureWakesAWaitingAwaitCompletion() throws Exception {
    ChunkQueue queue = new ChunkQueue(chunks(1));
    RelayCpException failure = new RelayCpException(ErrorCode.NO_ROUTES_LEFT, "no routes");
    CountDownLatch started = new CountDownLatch(1);
    Future<Boolean> completion = executor.submit(() -> {
      started.countDown();
      return queue.awaitCompletion(1, TimeUnit.HOURS);
    });
    assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    queue.fail(failure);

    assertThatThrownBy(() -> completion.get(WAIT_SECONDS, TimeUnit.SECONDS))
        .hasCause(failure);
  }

  @Test
  void awaitCompletionReturnsTrueWhenEveryChunkIsDone() throws Exception {
    ChunkQueue queue = new ChunkQueue(chunks(3));
    CountDownLatch started = new CountDownLatch(1);
    Future<Boolean> completion = executor.submit(() -> {
      started.countDown();
      return queue.awaitCompletion(1, TimeUnit.HOURS);
    });
    assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

    Chunk chunk;
    while ((chunk = queue.take()) != null) {
      queue.done(chunk);
    }

    assertThat(completion.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void awaitCompletionReturnsFalseWhenTheTimeoutPasses() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(chunks(1));
    queue.take();

    assertThat(queue.awaitCompletion(1, TimeUnit.MILLISECONDS)).isFalse();
  }

  @Test
  void concurrentConsumersTakeEveryChunkExactlyOnce() throws Exception {
    int count = 1000;
    int threads = 4;
    ChunkQueue queue = new ChunkQueue(chunks(count));
    Set<Integer> taken = ConcurrentHashMap.newKeySet();
    AtomicInteger duplicates = new AtomicInteger();
    AtomicInteger requeued = new AtomicInteger();
    List<Future<Integer>> consumers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      consumers.add(executor.submit(() -> {
        int mine = 0;
        Chunk chunk;
        while ((chunk = queue.take()) != null) {
          if (chunk.id() % 97 == 0 && requeued.incrementAndGet() <= 10) {
            queue.requeue(chunk);
            continue;
          }
          if (!taken.add(chunk.id())) {
            duplicates.incrementAndGet();
          }
          mine++;
          queue.done(chunk);
        }
        return mine;
      }));
    }

    int total = 0;
    for (Future<Integer> consumer : consumers) {
      total += consumer.get(WAIT_SECONDS * 3, TimeUnit.SECONDS);
    }

    assertThat(duplicates).hasValue(0);
    assertThat(total).isEqualTo(count);
    assertThat(taken).hasSize(count).allMatch(id -> id >= 0 && id < count);
    assertThat(queue.unfinished()).isZero();
    assertThat(queue.awaitCompletion(0, TimeUnit.SECONDS)).isTrue();
  }

  private static Chunk placed(int id, String... hosts) {
    return new Chunk(id, id, 0, 1, 0, 10, List.of(hosts));
  }

  private static List<Integer> takeAll(ChunkQueue queue, String host, int count)
      throws InterruptedException {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(queue.take(host).id());
    }
    return ids;
  }

  @Test
  void aReaderGetsTheChunksItsHostHoldsFirst() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "b"), placed(2, "a", "b"),
        placed(3, "b"), placed(4, "a")));
    queue.addReaderHost("a");
    queue.addReaderHost("b");

    assertThat(takeAll(queue, "b", 3)).containsExactly(1, 2, 3);
    assertThat(takeAll(queue, "a", 2)).containsExactly(0, 4);
    assertThat(queue.waiting()).isZero();
  }

  @Test
  void aRequeuedLocalChunkComesBackFirstToItsHost() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "a"), placed(2, "a")));
    queue.addReaderHost("a");
    Chunk first = queue.take("a");
    queue.requeue(first);

    assertThat(takeAll(queue, "a", 3)).containsExactly(0, 1, 2);
  }

  @Test
  void aReaderWithNoLocalWorkTakesWhatNoReaderHoldsBeforeStealing() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "a"), placed(2, "c"),
        placed(3), placed(4, "a")));
    queue.addReaderHost("a");
    queue.addReaderHost("b");

    assertThat(takeAll(queue, "b", 3)).containsExactly(2, 3, 0);
    assertThat(takeAll(queue, "a", 2)).containsExactly(1, 4);
  }

  @Test
  void stealingStartsWithTheLongestBacklog() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "b"), placed(2, "b"),
        placed(3, "b"), placed(4, "a")));
    queue.addReaderHost("a");
    queue.addReaderHost("b");
    queue.addReaderHost("c");

    assertThat(queue.take("c").id()).isEqualTo(1);
    assertThat(queue.remoteReads("b")).isEqualTo(1);
  }

  @Test
  void stealersSpreadOverTheHoldersByWhatTheirLinksHaveToSpare() throws InterruptedException {
    // a holds six chunks, b three; readers on c and d hold none and steal by waiting chunks
    // per remote read (plus one): a (6/1), then b (3/1 against a's 5/2), then a (5/2 against 2/2).
    List<Chunk> chunks = new ArrayList<>();
    for (int id = 0; id < 6; id++) {
      chunks.add(placed(id, "a"));
    }
    for (int id = 6; id < 9; id++) {
      chunks.add(placed(id, "b"));
    }
    ChunkQueue queue = new ChunkQueue(chunks);
    for (String host : List.of("a", "b", "c", "d")) {
      queue.addReaderHost(host);
    }

    assertThat(queue.take("c").id()).isZero();
    assertThat(queue.take("d").id()).as("b: 3 waiting, no remote read; a: 5 waiting, one")
        .isEqualTo(6);
    Chunk third = queue.take("c");
    assertThat(third.id()).as("a: 5/2 against b: 2/2").isEqualTo(1);

    assertThat(queue.remoteReads("a")).isEqualTo(2);
    assertThat(queue.remoteReads("b")).isEqualTo(1);
  }

  @Test
  void aRemoteReadLeavesItsHoldersCountWhenDoneOrSentBackAndALocalReadNeverEntersIt()
      throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a", "b"), placed(1, "a", "b"),
        placed(2, "a")));
    queue.addReaderHost("a");
    queue.addReaderHost("c");
    Chunk remote = queue.take("c");
    Chunk local = queue.take("a");
    assertThat(queue.remoteReads("a")).isEqualTo(1);
    assertThat(queue.remoteReads("b")).as("a chunk counts on each of its holders").isEqualTo(1);

    queue.done(local);
    assertThat(queue.remoteReads("a")).isEqualTo(1);
    queue.requeue(remote);
    assertThat(queue.remoteReads("a")).isZero();
    assertThat(queue.remoteReads("b")).isZero();

    Chunk again = queue.take("c");
    queue.done(again);
    assertThat(queue.remoteReads("a")).isZero();
  }

  @Test
  void aHostWhoseReadersLeftHasOrphansAnyReaderTakesFirst() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "b"), placed(2, "b")));
    queue.addReaderHost("a");
    queue.addReaderHost("b");
    queue.addReaderHost("b");
    queue.removeReaderHost("b");
    assertThat(queue.take("a").id()).isEqualTo(0);
    assertThat(queue.take("a").id()).as("b still has a reader: steal its backlog").isEqualTo(1);

    queue.removeReaderHost("b");
    queue.addReaderHost("c");
    assertThat(queue.take("c").id()).as("b has no reader left").isEqualTo(2);
  }

  @Test
  void noPreferenceTakesInOrderAndEveryChunkOnce() throws InterruptedException {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a"), placed(1, "b"), placed(2)));
    queue.addReaderHost("a");
    assertThat(queue.take("a").id()).isEqualTo(0);
    assertThat(queue.take(null).id()).isEqualTo(1);
    assertThat(queue.take()).isEqualTo(placed(2));
    assertThat(queue.waiting()).isZero();
  }

  @Test
  void aLocalReaderWaitsLikeAnyOtherAndEndsWithTheQueue() throws Exception {
    ChunkQueue queue = new ChunkQueue(List.of(placed(0, "a")));
    queue.addReaderHost("a");
    Chunk chunk = queue.take("a");
    Future<Chunk> waiting = executor.submit(() -> queue.take("a"));
    Thread.sleep(100);
    assertThat(waiting).isNotDone();

    queue.done(chunk);

    assertThat(waiting.get(WAIT_SECONDS, TimeUnit.SECONDS)).isNull();
  }
}
