package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.memory.keepinginsights.InsightBook;
import dev.agentbus.modelclient.ModelCallException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * One user's insights made again from their completed turns with today's extraction: every turn is asked about
 * (several at a time), the answers are folded in log order through the same {@link InsightBook} rule as live
 * distillation, each turn dated when it ended, and the result is one {@link InsightCommand.ReplaceDistilled} that
 * swaps the new set in at once. If any model call fails, there is no result: the old set stays as it was.
 */
final class MemoryRebuild {
    private MemoryRebuild() {
    }

    static InsightCommand.ReplaceDistilled of(String rebuildId, String userId, List<CompletedTurn> turns,
                                              Extractor extractor, int concurrency)
            throws ModelCallException, InterruptedException {
        List<List<InsightCommand.Extracted>> found = extractAll(turns, extractor, concurrency);
        InsightSet set = InsightSet.empty(userId);
        for (int n = 0; n < turns.size(); n++) {
            CompletedTurn turn = turns.get(n);
            var live = Extractor.command(turn, found.get(n));
            // Ids of their own (from the rebuild's id): a new insight must not take the id of one that stays.
            var rebuilt = new InsightCommand.RecordDistillation(UUID.nameUUIDFromBytes((rebuildId + "/"
                    + live.commandId()).getBytes(StandardCharsets.UTF_8)).toString(), live.userId(), live.sessionId(),
                    live.turnEndSeq(), live.seqs(), live.insights());
            set = InsightBook.apply(set, rebuilt, turn.endedAt());
        }
        String commandId = UUID.nameUUIDFromBytes((rebuildId + "/" + userId).getBytes(StandardCharsets.UTF_8))
                .toString();
        return new InsightCommand.ReplaceDistilled(commandId, userId, rebuildId, set.insights(), set.distilledUpTo());
    }

    private static List<List<InsightCommand.Extracted>> extractAll(List<CompletedTurn> turns, Extractor extractor,
                                                                    int concurrency)
            throws ModelCallException, InterruptedException {
        Semaphore slots = new Semaphore(concurrency);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<InsightCommand.Extracted>>> futures = new ArrayList<>();
            for (CompletedTurn turn : turns) {
                futures.add(pool.submit(() -> {
                    slots.acquire();
                    try {
                        return extractor.extract(turn);
                    } finally {
                        slots.release();
                    }
                }));
            }
            List<List<InsightCommand.Extracted>> out = new ArrayList<>();
            for (Future<List<InsightCommand.Extracted>> f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
                    futures.forEach(other -> other.cancel(true));
                    if (e.getCause() instanceof ModelCallException m) {
                        throw m;
                    }
                    throw new IllegalStateException("extraction failed", e.getCause());
                }
            }
            return out;
        }
    }
}
