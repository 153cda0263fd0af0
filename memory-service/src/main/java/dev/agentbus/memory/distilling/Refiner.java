package dev.agentbus.memory.distilling;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.Insight;
import dev.agentbus.events.insights.InsightCommand;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.modelclient.ModelCallException;
import dev.agentbus.modelclient.ModelClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refines a user's insights when they ask ({@code insights.refine_requested.v1}): one model call with the insights
 * that may change (neither protected nor disabled), the answer checked by {@link RefinementParser}, and one
 * {@link InsightCommand.ApplyRefinement} to the keeper, which applies every merge or none. An unusable answer or a
 * failed call gives a refinement with no merges, so the person's request is answered either way; nothing is retried.
 */
final class Refiner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Refiner.class);

    private final ModelClient model;
    private final CompactedTopicView<InsightSet> sets;

    Refiner(KafkaSettings kafka, ModelClient model) {
        this.model = model;
        this.sets = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "memory-refiner-insights",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class)).start();
    }

    InsightCommand.ApplyRefinement refine(InsightCommand.RequestRefinement request) throws InterruptedException {
        sets.awaitCaughtUp(Duration.ofSeconds(30));
        List<Insight> offered = sets.get(request.userId()).map(InsightSet::insights).orElse(List.of()).stream()
                .filter(i -> !i.isProtected() && !i.disabled()).toList();
        List<InsightCommand.Merge> merges = List.of();
        if (offered.size() >= 2) {
            try {
                String answer = model.complete(RefinementPrompt.messages(offered), List.of(), null).content();
                Set<String> ids = offered.stream().map(Insight::id).collect(Collectors.toSet());
                switch (RefinementParser.parse(answer, ids)) {
                    case RefinementParser.Result.Merges m -> merges = m.merges();
                    case RefinementParser.Result.Refused r -> LOG.warn("refinement {} of user {}: answer refused "
                            + "({}), nothing merged", request.commandId(), request.userId(), r.reason());
                }
            } catch (ModelCallException e) {
                LOG.warn("refinement {} of user {} failed, nothing merged: {}", request.commandId(), request.userId(),
                        e.getMessage());
            }
        }
        LOG.info("refinement {} of user {}: {} merges of {} insights", request.commandId(), request.userId(),
                merges.size(), offered.size());
        return new InsightCommand.ApplyRefinement(request.resultId(), request.userId(), merges);
    }

    @Override
    public void close() {
        sets.close();
        model.close();
    }
}
