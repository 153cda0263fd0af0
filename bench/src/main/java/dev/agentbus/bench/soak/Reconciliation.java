package dev.agentbus.bench.soak;

import dev.agentbus.events.session.EventEnvelope;
import dev.agentbus.events.session.SessionEvent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a soak run must show afterwards, counted from the log, the workspaces and the read models. Pure: given what
 * was read, it counts; {@link SoakBench} does the reading. Every count must be 0.
 *
 * <p>Each step of the soak's scripted model carries a number of its own: {@code shell} appends it to
 * {@code soak.log} in the session's workspace. So a number found twice in the workspaces is a command run twice,
 * and one in the workspaces whose call has no successful result, or the other way round, is a run that went
 * unrecorded or a result that never ran.
 */
record Reconciliation(int seqGaps, int seqRepeats, int requestsWithoutOneResult, int messagesMissing,
                      int commandsRunTwice, int commandsRunUnrecorded, int resultsNotRun, int readModelsBehind) {

    static final Pattern STEP = Pattern.compile("echo (\\d+) >> soak\\.log");

    boolean clean() {
        return seqGaps + seqRepeats + requestsWithoutOneResult + messagesMissing + commandsRunTwice
                + commandsRunUnrecorded + resultsNotRun + readModelsBehind == 0;
    }

    /**
     * @param logs          each session's events, in log order
     * @param messagesSent  how many messages the driver posted to each session (answered 202)
     * @param workspaceRuns each session's {@code soak.log} lines (the step numbers its commands wrote)
     * @param readModelSeq  each session's {@code lastSeq} in the PostgreSQL read model
     */
    static Reconciliation of(Map<String, List<EventEnvelope>> logs, Map<String, Integer> messagesSent,
                             Map<String, List<String>> workspaceRuns, Map<String, Long> readModelSeq) {
        int gaps = 0;
        int repeats = 0;
        int unanswered = 0;
        int missing = 0;
        int behind = 0;
        Set<Long> recorded = new HashSet<>();
        for (Map.Entry<String, List<EventEnvelope>> e : logs.entrySet()) {
            long expected = 1;
            Set<Long> seen = new HashSet<>();
            Map<String, Integer> results = new HashMap<>();
            Map<String, String> commands = new HashMap<>();
            int posted = 0;
            for (EventEnvelope ev : e.getValue()) {
                if (!seen.add(ev.seq())) {
                    repeats++;
                    continue;
                }
                if (ev.seq() != expected) {
                    gaps++;
                }
                expected = ev.seq() + 1;
                switch (ev.event()) {
                    case SessionEvent.ToolCallRequested r -> {
                        results.putIfAbsent(r.callId(), 0);
                        commands.put(r.callId(), r.arguments());
                    }
                    case SessionEvent.ToolCallCompleted c -> {
                        results.merge(c.callId(), 1, Integer::sum);
                        Matcher m = STEP.matcher(commands.getOrDefault(c.callId(), ""));
                        if (c.ok() && m.find()) {
                            recorded.add(Long.parseLong(m.group(1)));
                        }
                    }
                    case SessionEvent.UserMessagePosted p -> posted++;
                    default -> {
                    }
                }
            }
            unanswered += (int) results.values().stream().filter(n -> n != 1).count();
            missing += Math.max(0, messagesSent.getOrDefault(e.getKey(), 0) - posted);
            long lastSeq = expected - 1;
            if (readModelSeq.getOrDefault(e.getKey(), -1L) != lastSeq) {
                behind++;
            }
        }
        Map<Long, Integer> runs = new HashMap<>();
        workspaceRuns.values().forEach(lines -> lines.stream().map(String::strip).filter(l -> !l.isEmpty())
                .forEach(l -> runs.merge(Long.parseLong(l), 1, Integer::sum)));
        int twice = (int) runs.values().stream().filter(n -> n > 1).count();
        List<Long> unrecorded = new ArrayList<>(runs.keySet());
        unrecorded.removeAll(recorded);
        List<Long> notRun = new ArrayList<>(recorded);
        notRun.removeAll(runs.keySet());
        return new Reconciliation(gaps, repeats, unanswered, missing, twice, unrecorded.size(), notRun.size(), behind);
    }
}
