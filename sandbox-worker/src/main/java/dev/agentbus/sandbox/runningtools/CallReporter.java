package dev.agentbus.sandbox.runningtools;

import dev.agentbus.eventbus.processing.Outbox;
import dev.agentbus.events.input.SessionInput;
import dev.agentbus.events.ledger.ToolLedgerEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Reports calls on the loop's thread, in the batch's transaction: each result together with its ledger entry
 * FINISHED, so that every call is reported exactly once (invariant 4). Apart from {@link ToolRunner}, which decides
 * when calls are taken on and when to report, because this is the part that must stay right for "exactly once".
 */
final class CallReporter {
    /** The runner's logger, as before this class was split off: log settings that name it keep working. */
    private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

    private final CallQueue queue;
    private final ToolLedger ledger;
    private final ContextFiles contextFiles;
    private final CallReports reports;
    /** Calls of newly assigned partitions that a dead worker started and never finished; loop thread only. */
    private final List<ToolLedgerEntry> toInterrupt = new ArrayList<>();

    CallReporter(CallQueue queue, ToolLedger ledger, ContextFiles contextFiles, CallReports reports) {
        this.queue = queue;
        this.ledger = ledger;
        this.contextFiles = contextFiles;
        this.reports = reports;
    }

    /** Calls found started and never finished, to be reported interrupted at the next iteration. */
    void foundInterrupted(Collection<ToolLedgerEntry> calls) {
        toInterrupt.addAll(calls);
    }

    /** A new run of the loop: what was found interrupted is found again on the next assignment. */
    void forgetInterrupted() {
        toInterrupt.clear();
    }

    /**
     * The result and FINISHED together, once per call: "results exactly once". A call leaves the queue only after
     * its transaction committed; if the commit fails, the loop starts over and reports it then.
     */
    void reportFinished(Outbox out) {
        List<FinishedCall> done = queue.finished();
        if (done.isEmpty()) {
            return;
        }
        for (FinishedCall f : done) {
            TakenCall call = f.call();
            if (ToolRunner.onlyReads(call) && !f.notRun()) {
                // its "started" was not sent when it was taken on (see ToolRunner#takeOn); before the result, as
                // for any call
                out.send(reports.started(call));
            }
            if (f.contextFiles() != null) {
                // Before the result: the model call that the result lets happen already has the new files.
                out.send(reports.input(call.sessionId(), call.userId(), call.cause().id(),
                        new SessionInput.RecordContextFiles(f.contextFiles()), call.trace()));
                out.afterCommit(() -> contextFiles.reported(call.sessionId(), f.contextFiles()));
            }
            out.send(reports.result(f));
            out.send(ledger.finished(call));
        }
        out.afterCommit(() -> queue.reported(done));
    }

    /** Calls of newly assigned partitions that a dead worker started and never finished. */
    void reportInterrupted(Outbox out) {
        for (ToolLedgerEntry started : toInterrupt) {
            LOG.warn("tool call {} of session {} was started by {} and never finished; reporting it interrupted, "
                    + "not running it again", started.callId(), started.sessionId(), started.worker());
            out.send(reports.interrupted(started));
            out.send(ledger.finished(started));
        }
        // If the transaction fails, the run ends and the next assignment finds these calls again.
        toInterrupt.clear();
    }
}
