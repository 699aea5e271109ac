// Package terminal draws full-screen frames on a terminal in place of
// bubbletea's renderer: a line screen that writes only the rows that
// changed, the takeover of a Unix tty (raw mode, the alternate screen,
// synchronized output, the clipboard at once), and the tidying of frames
// that drops bytes which change no cell. It knows nothing of the board.
package terminal
