// Background music a game declares (GameSpec.music), synthesised with Web Audio: no files.
// A style is a slow chord progression and a way of playing it; notes are scheduled a
// little ahead on the audio clock, so the music keeps time however busy the page is.

const STYLES = {
  // a music box: soft arpeggios over a I–vi–IV–V progression, an echo for a room
  "music-box": {
    tempo: 76,                                   // beats a minute, two notes a beat
    chords: [[60, 64, 67, 72], [57, 60, 64, 69], [53, 57, 60, 65], [55, 59, 62, 67]],
    pattern: [0, 1, 2, 3, 2, 1, 2, 3],           // which chord note each eighth plays
    bass: true,
    gain: 0.045,
  },
};

const LOOKAHEAD_S = 0.3;
const TICK_MS = 100;

export function createMusic(style) {
  const score = STYLES[style];
  let context = null, output = null, timer = 0, nextAt = 0, step = 0;

  function note(midi, at, length, gain, type = "sine") {
    const osc = context.createOscillator(), amp = context.createGain();
    osc.type = type;
    osc.frequency.value = 440 * 2 ** ((midi - 69) / 12);
    amp.gain.setValueAtTime(0.0001, at);
    amp.gain.exponentialRampToValueAtTime(gain, at + 0.015);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(amp).connect(output);
    osc.start(at); osc.stop(at + length + 0.05);
  }

  function schedule() {
    const eighth = 30 / score.tempo;
    while (nextAt < context.currentTime + LOOKAHEAD_S) {
      const bar = Math.floor(step / score.pattern.length);
      const chord = score.chords[bar % score.chords.length];
      const index = score.pattern[step % score.pattern.length];
      note(chord[index] + 12, nextAt, eighth * 3, score.gain);
      note(chord[index] + 24, nextAt, eighth * 1.5, score.gain * 0.25, "triangle");  // the tine's shimmer
      if (score.bass && step % score.pattern.length === 0) note(chord[0] - 12, nextAt, eighth * 8, score.gain * 0.8);
      nextAt += eighth;
      step += 1;
    }
  }

  function start() {
    if (!score || timer) return;
    try {
      context ??= new AudioContext();
      if (!output) {  // a quiet master with a soft echo
        output = context.createGain();
        output.gain.value = 0.8;
        const echo = context.createDelay(), feedback = context.createGain();
        echo.delayTime.value = 0.27; feedback.gain.value = 0.28;
        output.connect(context.destination);
        output.connect(echo).connect(feedback).connect(echo);
        feedback.connect(context.destination);
      }
      if (context.state === "suspended") context.resume();
      nextAt = context.currentTime + 0.1;
      timer = setInterval(schedule, TICK_MS);
      schedule();
    } catch { /* no audio device: no music */ }
  }

  function stop() {
    clearInterval(timer);
    timer = 0;
    if (context && context.state === "running") context.suspend();  // notes already scheduled fall silent
  }

  return { start, stop, playing: () => Boolean(timer) };
}
