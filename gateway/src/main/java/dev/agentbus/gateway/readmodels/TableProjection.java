package dev.agentbus.gateway.readmodels;

import dev.agentbus.events.session.EventEnvelope;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * One read model's part of applying a batch of events, inside the projector's transaction. A fresh instance serves
 * one batch: it reads the rows the batch will change, folds the events into them in memory, in log order, and
 * writes what changed. Reading and writing once per batch (not once per event) is what makes a rebuild fast.
 */
public interface TableProjection {

    /** Reads the rows that these events (the whole batch, in log order) will change. */
    void load(Connection db, List<EventEnvelope> events) throws SQLException;

    /** Applies one event to the rows in memory. Called for every event of the batch, in log order. */
    void apply(EventEnvelope event);

    /** Writes the rows that changed. */
    void save(Connection db) throws SQLException;
}
