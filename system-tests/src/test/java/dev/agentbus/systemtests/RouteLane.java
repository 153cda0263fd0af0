package dev.agentbus.systemtests;

import java.net.http.HttpRequest;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * One session of {@link SymlinkRaceIT} whose gateway routes a person hammers: each round sends every probe once, and
 * every answer is searched for the secrets outside the workspace. A session runs one person's call at a time, so
 * the lanes run side by side, not the probes of one lane.
 */
final class RouteLane {
    /** One route on one path; {@code request} gets the bob client and a number that is new for every attempt. */
    record Probe(String name, BiFunction<GatewayClient, Integer, HttpRequest> request) {
    }

    final String lane;
    final String sessionId;
    final List<Probe> probes;

    RouteLane(String lane, String sessionId, List<Probe> probes) {
        this.lane = lane;
        this.sessionId = sessionId;
        this.probes = probes;
    }

    static String base(String sessionId) {
        return "/api/v1/sessions/" + sessionId;
    }

    /** Until {@code done}: every probe, again and again; each answer tallied with its status and any secret. */
    void hammer(GatewayClient bob, RaceTargets targets, RaceTally tally, BooleanSupplier done) {
        probes.forEach(p -> tally.expect(p.name()));
        int n = 0;
        while (!done.getAsBoolean()) {
            for (Probe p : probes) {
                n++;
                GatewayClient.Response r;
                try {
                    r = bob.send(p.request().apply(bob, n));
                } catch (AssertionError noAnswer) {
                    tally.attempt(p.name(), "no answer");
                    continue;
                }
                tally.attempt(p.name(), Integer.toString(r.status()));
                List<String> secrets = targets.secretsIn(r.body());
                if (!secrets.isEmpty()) {
                    tally.leak(p.name(), "attempt " + n + " answered " + r.status() + " with "
                            + String.join(" and ", secrets) + ": " + abbreviate(r.body()));
                }
            }
        }
    }

    static String abbreviate(String s) {
        String flat = s.replace("\n", "\\n");
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "…";
    }
}
