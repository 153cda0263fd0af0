package dev.agentbus.cli.chat;

/**
 * What Ctrl-C means in chat with the line editor, which lets a person press it without losing the conversation:
 * <ul>
 *   <li>at the prompt with something typed: clear the line;</li>
 *   <li>at an empty prompt: say that a second Ctrl-C leaves; the second one in a row leaves;</li>
 *   <li>during a turn: cancel the turn (TurnRunner does that); a second Ctrl-C during the same turn leaves, and so
 *       does a Ctrl-C at the empty prompt that follows the cancelled turn: "twice in a row quits".</li>
 * </ul>
 * "In a row" means no line was entered in between. Kept apart from the terminal so that it is tested without one.
 */
final class CtrlC {
    /** What a Ctrl-C at the prompt does. */
    enum AtPrompt { CLEAR_LINE, HINT, LEAVE }

    /** The last thing the person did was a Ctrl-C that did not clear a line. */
    private boolean pressedBefore;

    /** Ctrl-C at the prompt, with {@code typed} what the line held. */
    AtPrompt atPrompt(String typed) {
        if (typed != null && !typed.isBlank()) {
            pressedBefore = false; // clearing a line is not a first step towards leaving
            return AtPrompt.CLEAR_LINE;
        }
        if (pressedBefore) {
            return AtPrompt.LEAVE;
        }
        pressedBefore = true;
        return AtPrompt.HINT;
    }

    /** A turn this chat streamed has ended (or stopped streaming); true means leave: Ctrl-C was pressed twice. */
    boolean afterTurn(int presses) {
        if (presses >= 2) {
            return true;
        }
        pressedBefore = presses == 1;
        return false;
    }

    /** A line was entered: the next Ctrl-C starts counting afresh. */
    void lineEntered() {
        pressedBefore = false;
    }
}
