package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReplacementBudgetTest {
  private final AtomicLong now = new AtomicLong(1_000);

  private void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  @Test
  void aLoopOfLossesStopsAtTheBudgetAndLossesSpreadOverHoursAreAllReplaced() {
    ReplacementBudget budget = ReplacementBudget.of(4, Duration.ofHours(1), now::get);

    for (int loss = 0; loss < 4; loss++) {
      assertThat(budget.take()).as("loss " + loss).isTrue();
      advance(Duration.ofSeconds(10));
    }
    assertThat(budget.take()).as("a fifth loss within the hour").isFalse();
    assertThat(budget.anyLeft()).isFalse();
    assertThat(budget.used()).isEqualTo(4);

    // An hour after the first, its replacement no longer counts: one more may be taken.
    advance(Duration.ofHours(1).minusSeconds(40));
    assertThat(budget.take()).isTrue();
    assertThat(budget.take()).isFalse();

    // A day of a loss every twenty minutes: each is replaced.
    advance(Duration.ofHours(2));
    for (int loss = 0; loss < 72; loss++) {
      assertThat(budget.take()).as("loss " + loss + " of the day").isTrue();
      advance(Duration.ofMinutes(20));
    }
  }

  @Test
  void noReplacementsMeansNone() {
    ReplacementBudget budget = ReplacementBudget.of(0, Duration.ofHours(1), now::get);

    assertThat(budget.anyLeft()).isFalse();
    assertThat(budget.take()).isFalse();
  }

  @Test
  void refusesANegativeBudgetOrAnEmptyWindow() {
    assertThatThrownBy(() -> ReplacementBudget.of(-1, Duration.ofHours(1), now::get))
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> ReplacementBudget.of(4, Duration.ZERO, now::get))
        .hasMessageContaining("positive");
  }
}
