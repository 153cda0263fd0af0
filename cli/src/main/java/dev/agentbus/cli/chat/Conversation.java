package dev.agentbus.cli.chat;

import dev.agentbus.api.SessionListEntry;
import dev.agentbus.cli.Printer;
import dev.agentbus.cli.gateway.GatewayClient;
import dev.agentbus.cli.render.SessionTable;
import dev.agentbus.cli.render.Text;
import dev.agentbus.cli.turn.ImageAttachments;
import dev.agentbus.cli.turn.TurnRunner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What chat remembers between lines: the session messages go to, what the next new session will be like, and
 * where its turn paused for an approval. Messages and the turn after a decision go through here, so the session
 * is created with the first message and a paused turn is picked up from the right event.
 */
final class Conversation {
    private final GatewayClient gateway;
    private final Printer printer;
    private final TurnRunner runner;

    /** The session messages go to; null until the first message creates one (and after /new). */
    private String session;
    /** The title of the session the next message creates: --title or /new TITLE; null means the message, shortened. */
    private String nextTitle;
    /** The permission mode chosen with /mode, for each session this chat creates; null: the gateway's default. */
    private String mode;
    /** Every session this chat creates is plan-first ({@code chat --plan}). */
    private final boolean planFirst;
    /** The session the next message creates is plan-first ({@code /new --plan}). */
    private boolean nextPlanFirst;
    /** The seq the current session's turn paused after because calls wait for approval; -1 when it did not. */
    private long pausedAfter = -1;

    Conversation(GatewayClient gateway, Printer printer, TurnRunner runner, String title, boolean planFirst) {
        this.gateway = gateway;
        this.printer = printer;
        this.runner = runner;
        this.nextTitle = Text.isBlank(title) ? null : title.strip();
        this.planFirst = planFirst;
    }

    String session() {
        return session;
    }

    String nextTitle() {
        return nextTitle;
    }

    String mode() {
        return mode;
    }

    void mode(String mode) {
        this.mode = mode;
    }

    /** Continue this existing session (--session, /switch). */
    void use(String id) {
        session = id;
        nextTitle = null;
        pausedAfter = -1;
    }

    /** Whether the session the next message creates is plan-first. */
    boolean nextPlanFirst() {
        return planFirst || nextPlanFirst;
    }

    /**
     * The next message starts a new session, titled {@code title} (null: after the message), plan-first when
     * {@code planFirst} (or when this chat makes every session plan-first).
     */
    void startNew(String title, boolean planFirst) {
        session = null;
        nextTitle = title;
        nextPlanFirst = planFirst;
        pausedAfter = -1;
    }

    /** Sends a message: to the current session, or to a new one it creates first; streams the turn. */
    TurnRunner.Result send(String text) {
        long after;
        if (session == null) {
            boolean plan = nextPlanFirst();
            String id = TurnRunner.createSession(gateway, nextTitle != null ? nextTitle : Text.oneLine(text, 60), mode,
                    plan);
            session = id;
            nextTitle = null;
            nextPlanFirst = false;
            after = 0; // a new session: its whole log is this turn
            printer.println(printer.dim("session " + id + (plan
                    ? " · plan-first: the agent proposes a plan, and no other tool runs before you approve it" : "")));
        } else {
            after = TurnRunner.lastSeq(gateway, session);
        }
        pausedAfter = -1;
        List<String> attached = List.of();
        if (!nextImages.isEmpty()) {
            attached = ImageAttachments.attach(gateway, session, nextImages);
            nextImages.clear();
            after = TurnRunner.lastSeq(gateway, session); // the uploads are calls in the log, not this turn
        }
        return remember(runner.send(session, after, text, attached));
    }

    /** Images (local files, or workspace:PATH) for the next message, from {@code /image}. */
    private final List<String> nextImages = new java.util.ArrayList<>();

    void attachImage(String argument) {
        nextImages.add(argument);
    }

    List<String> nextImages() {
        return List.copyOf(nextImages);
    }

    /**
     * Streams the rest of the current session's turn after a decision: from where it paused in this chat, else from
     * {@code lastSeq} (the state the decision was made on). {@code awaiting}: calls still waiting for approval;
     * {@code tools}: the tool of each call requested before (call id to tool).
     */
    TurnRunner.Result follow(long lastSeq, List<String> awaiting, Map<String, String> tools) {
        long after = pausedAfter >= 0 ? pausedAfter : lastSeq;
        pausedAfter = -1;
        return remember(runner.follow(session, after, awaiting, tools));
    }

    private TurnRunner.Result remember(TurnRunner.Result result) {
        pausedAfter = result.paused() ? result.pausedAfter() : -1;
        return result;
    }

    /**
     * The session an id or id prefix names, from the gateway's list: an exact id wins, else exactly one id must
     * start with it. Prints why and returns null when none or several match.
     */
    SessionListEntry resolve(String idOrPrefix) {
        List<SessionListEntry> sessions = SessionTable.parse(gateway.sessions().list());
        List<SessionListEntry> matches = new ArrayList<>();
        for (SessionListEntry s : sessions) {
            String id = s.id();
            if (idOrPrefix.equals(id)) {
                return s;
            }
            if (id != null && id.startsWith(idOrPrefix)) {
                matches.add(s);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            printer.error("no session " + idOrPrefix + " (/sessions lists them)");
        } else {
            List<String> ids = matches.stream().map(SessionListEntry::id).limit(5).toList();
            printer.error(idOrPrefix + " is the start of " + matches.size() + " session ids (" + String.join(", ", ids)
                    + (matches.size() > ids.size() ? ", …" : "") + "); type more of it");
        }
        return null;
    }
}
