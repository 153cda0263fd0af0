package dev.agentbus.orchestrator.running;

import dev.agentbus.eventbus.CompactedTopicView;
import dev.agentbus.eventbus.KafkaSettings;
import dev.agentbus.eventbus.TopicAdmin;
import dev.agentbus.events.codec.EventCodec;
import dev.agentbus.events.insights.InsightSet;
import dev.agentbus.events.memory.MemoryDocument;
import dev.agentbus.orchestrator.config.InsightInjectionSettings;
import dev.agentbus.orchestrator.deciding.remembering.InjectionLimits;
import dev.agentbus.events.topics.Topics;
import dev.agentbus.eventbus.outgoing.OutgoingPolicy;
import dev.agentbus.eventbus.outgoing.OutgoingSettings;
import dev.agentbus.eventbus.secrets.SecretBox;
import dev.agentbus.events.models.UserModelSettings;
import dev.agentbus.orchestrator.config.AgentSettings;
import dev.agentbus.orchestrator.config.ContextSettings;
import dev.agentbus.orchestrator.deciding.ContextLimits;
import dev.agentbus.orchestrator.config.LoopGuardSettings;
import dev.agentbus.orchestrator.config.SubAgentSettings;
import dev.agentbus.orchestrator.deciding.delegating.SubAgentLimits;
import dev.agentbus.orchestrator.config.PermissionSettings;
import dev.agentbus.orchestrator.deciding.LoopLimits;
import dev.agentbus.orchestrator.config.LlmSettings;
import dev.agentbus.orchestrator.config.ModelCapabilitySettings;
import dev.agentbus.events.images.SessionImage;
import dev.agentbus.orchestrator.prompting.PromptBuilder;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/** Wires the orchestrator's parts together when its application context starts, and stops them when it closes. */
@Context
public class OrchestratorRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(OrchestratorRuntime.class);

    private final KafkaSettings kafka;
    private final LlmSettings llm;
    private final int maxIterations;
    private final String systemPrompt;
    private final int snapshotEvery;
    private final SecretBox secrets;
    /** The rule for the model servers users choose (agentbus.outgoing.allow). */
    private final OutgoingPolicy outgoing;
    private final PermissionSettings permissions;
    private final LoopLimits loopLimits;
    private final ContextSettings context;
    private final SubAgentLimits subAgents;
    private final ModelCapabilitySettings capabilities;
    private CompactedTopicView<SessionImage> images;
    private CompactedTopicView<MemoryDocument> memory;
    private CompactedTopicView<UserModelSettings> userModels;
    private CompactedTopicView<InsightSet> insights;
    private final InsightInjectionSettings injection;
    private ModelServers servers;
    private SessionEngine engine;

    public OrchestratorRuntime(KafkaSettings kafka, LlmSettings llm, AgentSettings agent,
                               PermissionSettings permissions, LoopGuardSettings loopGuard, ContextSettings context,
                               SubAgentSettings subAgents, ModelCapabilitySettings capabilities,
                               InsightInjectionSettings injection,
                               SecretBox secrets, OutgoingSettings outgoing) {
        this.outgoing = outgoing.policy();
        this.subAgents = subAgents.limits();
        this.injection = injection;
        this.context = context;
        this.capabilities = capabilities;
        this.loopLimits = new LoopLimits(loopGuard.repeatedCalls(), loopGuard.noProgress(), loopGuard.toolErrors(),
                loopGuard.emptyReplies());
        this.kafka = kafka;
        this.permissions = permissions;
        this.secrets = secrets;
        this.llm = llm;
        this.maxIterations = agent.maxIterations();
        this.systemPrompt = agent.systemPrompt();
        this.snapshotEvery = agent.snapshotEvery();
    }

    @PostConstruct
    void start() throws InterruptedException {
        TopicAdmin.ensureTopics(kafka);
        SnapshotTopic.configure(kafka);
        memory = new CompactedTopicView<>(kafka, Topics.USER_MEMORY.name(), "orchestrator-memory",
                bytes -> EventCodec.decodeValue(bytes, MemoryDocument.class)).start();
        // A turn started before the view is complete would attach an empty memory document.
        if (!memory.awaitCaughtUp(Duration.ofSeconds(60))) {
            throw new IllegalStateException("could not read " + Topics.USER_MEMORY.name() + " within 60 s");
        }
        userModels = new CompactedTopicView<>(kafka, Topics.USER_MODELS.name(), "orchestrator-user-models",
                bytes -> EventCodec.decodeValue(bytes, UserModelSettings.class)).start();
        // A call made before the view is complete would go to the team's server instead of the user's own.
        if (!userModels.awaitCaughtUp(Duration.ofSeconds(60))) {
            throw new IllegalStateException("could not read " + Topics.USER_MODELS.name() + " within 60 s");
        }
        // Images attached to messages, as the sandbox-worker read them; a call waits for the ones not here yet, so
        // this view need not be complete before the engine starts.
        images = new CompactedTopicView<>(kafka, Topics.SESSION_IMAGES.name(), "orchestrator-images",
                bytes -> EventCodec.decodeValue(bytes, SessionImage.class)).start();
        AttachedImages attached = new AttachedImages(images, Duration.ofSeconds(capabilities.imageWaitSeconds()));
        insights = new CompactedTopicView<>(kafka, Topics.USER_INSIGHTS.name(), "orchestrator-insights",
                bytes -> EventCodec.decodeValue(bytes, InsightSet.class)).start();
        // A turn started before the view is complete would leave out insights the user has.
        if (!insights.awaitCaughtUp(Duration.ofSeconds(60))) {
            throw new IllegalStateException("could not read " + Topics.USER_INSIGHTS.name() + " within 60 s");
        }
        servers = new ModelServers(llm.modelSettings(), userModels::get, secrets, outgoing);
        PromptBuilder prompts = new PromptBuilder(systemPrompt);
        engine = new SessionEngine(kafka,
                answers -> new ModelCalls(kafka, servers, prompts, Clock.systemUTC(), answers, context.window(),
                        attached, capabilities),
                new MemoryLookup() {
                    @Override
                    public MemoryDocument forUser(String userId) {
                        return memory.get(userId).orElse(MemoryDocument.empty(userId));
                    }

                    @Override
                    public InsightSet insightsFor(String userId) {
                        return insights.get(userId).orElse(null);
                    }

                    @Override
                    public InjectionLimits injection() {
                        return injection.limits();
                    }
                }, Clock.systemUTC(), maxIterations,
                snapshotEvery, permissions.defaultMode(), permissions.approvalTimeout(), loopLimits,
                new ContextLimits(context.compactAt(), context.keepRecentMessages()), servers::defaultsFor,
                subAgents);
        engine.start();
        LOG.info("orchestrator started: model server {}, model {}, max {} model calls per turn, {}, permission mode {} "
                        + "by default, approvals expire after {}, loop guards {}, {}",
                llm.modelSettings().baseUrl(),
                llm.modelSettings().model().isBlank() ? "(the server's first)" : llm.modelSettings().model(),
                maxIterations, snapshotEvery == 0 ? "snapshots off" : "a snapshot every " + snapshotEvery + " events",
                permissions.defaultMode().wireName(), permissions.approvalTimeout(), loopLimits, context);
    }

    @PreDestroy
    void stop() {
        if (engine != null) {
            engine.close();
        }
        if (insights != null) {
            insights.close();
        }
        if (memory != null) {
            memory.close();
        }
        if (userModels != null) {
            userModels.close();
        }
        if (images != null) {
            images.close();
        }
        if (servers != null) {
            servers.close();
        }
    }
}
