package dev.agentbus.events.state;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list that appends in O(1) by sharing one growing array with the lists it was appended from.
 *
 * <p>Why: the fold appends a message to the conversation for many events. Copying the list each time made folding
 * a session O(n²); a 10⁴-event session took seconds. Here every list is a view of the first {@code size} slots of
 * a shared array. Those slots are never written again, so each list stays immutable however many lists are appended
 * after it. Only the newest list of a lineage appends in place; appending to an older one (two branches from the
 * same state, as a test or a fork may do) copies its prefix once and starts a new lineage.
 *
 * <p>Nulls are refused, as {@link List#copyOf} does. Mutators throw {@link UnsupportedOperationException}.
 * Equality and hash code are those of {@link List}, so a list read from JSON equals the folded one.
 */
final class AppendOnlyList<E> extends AbstractList<E> implements RandomAccess {
    private static final int MIN_CAPACITY = 8;

    /** The array a lineage of lists shares, and how many of its slots are taken. Guarded by itself. */
    private static final class Shared {
        Object[] items;
        int size;

        Shared(Object[] items, int size) {
            this.items = items;
            this.size = size;
        }
    }

    private final Shared shared;
    /** The array as it was when this list was made: it holds this list's elements even after the lineage grows. */
    private final Object[] items;
    private final int size;

    private AppendOnlyList(Shared shared, Object[] items, int size) {
        this.shared = shared;
        this.items = items;
        this.size = size;
    }

    static <E> AppendOnlyList<E> empty() {
        return new AppendOnlyList<>(new Shared(new Object[MIN_CAPACITY], 0), new Object[0], 0);
    }

    /** The list itself when it is one already (O(1)), otherwise a copy. */
    @SuppressWarnings("unchecked")
    static <E> AppendOnlyList<E> copyOf(Collection<? extends E> elements) {
        if (elements instanceof AppendOnlyList<?> list) {
            return (AppendOnlyList<E>) list;
        }
        Object[] copy = elements.toArray();
        for (Object e : copy) {
            Objects.requireNonNull(e, "element");
        }
        Object[] items = Arrays.copyOf(copy, Math.max(MIN_CAPACITY, copy.length));
        return new AppendOnlyList<>(new Shared(items, copy.length), items, copy.length);
    }

    /** This list with {@code e} at the end. */
    AppendOnlyList<E> plus(E e) {
        Objects.requireNonNull(e, "element");
        synchronized (shared) {
            if (shared.size == size) {
                // The newest list of its lineage: the next slot is free, no list can see it yet.
                if (size == shared.items.length) {
                    shared.items = Arrays.copyOf(shared.items, Math.max(MIN_CAPACITY, size * 2));
                }
                shared.items[size] = e;
                shared.size = size + 1;
                return new AppendOnlyList<>(shared, shared.items, size + 1);
            }
        }
        // A later list of this lineage has taken the next slot: branch off with a copy of our prefix.
        Object[] copy = Arrays.copyOf(items, Math.max(MIN_CAPACITY, size * 2));
        copy[size] = e;
        return new AppendOnlyList<>(new Shared(copy, size + 1), copy, size + 1);
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) items[index];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof AppendOnlyList<?> other && other.size == size && other.items == items) {
            return true; // the same prefix of the same array
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
