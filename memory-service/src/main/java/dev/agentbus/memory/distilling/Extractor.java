package dev.agentbus.memory.distilling;

import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * Today's extraction logic, in one place for the live distiller and the rebuild: the prompt
 * ({@link ExtractionPrompt}), one model call, and the reading of its answer ({@link ExtractionParser}). A malformed
 * answer is logged and gives nothing, never a second call; a model server that fails throws.
 */
final class Extractor {
    private static final Logger LOG = LoggerFactory.getLogger(Extractor.class);

    private final ModelClient model;
    private final int maxTurnChars;

    Extractor(ModelClient model, int maxTurnChars) {
        this.model = model;
        this.maxTurnChars = maxTurnChars;
    }

    List<InsightCommand.Extracted> extract(CompletedTurn turn) throws ModelCallException {
        String answer = model.complete(ExtractionPrompt.messages(turn, maxTurnChars), List.of(), null).content();
        return switch (ExtractionParser.parse(answer)) {
            case Extraction.Parsed p -> {
                p.skipped().forEach(why -> LOG.warn("distilling turn {}@{}: item skipped: {}", turn.sessionId(),
                        turn.turnEndSeq(), why));
                yield p.insights();
            }
            case Extraction.Malformed m -> {
                LOG.warn("distilling turn {}@{}: malformed answer skipped ({}): {}", turn.sessionId(),
                        turn.turnEndSeq(), m.reason(), abbreviated(answer));
                yield List.of();
            }
        };
    }

    /** The command of one turn's findings; its id follows from the turn, so the same turn gives the same command. */
    static InsightCommand.RecordDistillation command(CompletedTurn turn, List<InsightCommand.Extracted> found) {
        String commandId = UUID.nameUUIDFromBytes((turn.sessionId() + "@" + turn.turnEndSeq())
                .getBytes(StandardCharsets.UTF_8)).toString();
        return new InsightCommand.RecordDistillation(commandId, turn.userId(), turn.sessionId(), turn.turnEndSeq(),
                turn.seqs(), found);
    }

    private static String abbreviated(String s) {
        return s == null ? "" : s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    void close() {
        model.close();
    }
}
