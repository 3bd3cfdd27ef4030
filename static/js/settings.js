// The player's own settings, kept in this browser: sounds (off unless turned on),
// the speed of the card animations (a system "reduce motion" setting wins), and
// whether a card play needs a second tap.

const KEY = "cardtable-settings";
const SPEEDS = { off: 0, slow: 1.6, normal: 1, fast: 0.5 };
// `confirm`: null until the player chooses; then a first tap only raises a card.
const settings = { sound: false, speed: "normal", confirm: null, ...load() };

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch (error) {
    return {};
  }
}

function save() {
  localStorage.setItem(KEY, JSON.stringify(settings));
  apply();
}

/**
 * Whether a card play waits for a second tap (the first raises the card): the player's
 * choice, else on for touch screens (a misplaced finger) and off for a mouse.
 */
export function confirmPlays() {
  if (typeof settings.confirm === "boolean") return settings.confirm;
  return window.matchMedia("(pointer: coarse)").matches;
}

/** Whether the person asked their system for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** How long an animation of `ms` milliseconds runs now (0: none). */
export function animationTime(ms) {
  if (reducedMotion()) return 0;
  return ms * (SPEEDS[settings.speed] ?? 1);
}

function apply() {
  const factor = reducedMotion() ? 0 : SPEEDS[settings.speed] ?? 1;
  document.documentElement.style.setProperty("--motion", String(factor));
  document.body.classList.toggle("no-motion", factor === 0);
}

let audio = null;

/** A short tone, if sounds are on: "turn" (your turn) or "card" (a card played). */
export function sound(kind) {
  if (!settings.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const [freq, length] = kind === "turn" ? [660, 0.18] : [220, 0.06];
    osc.frequency.value = freq;
    osc.type = kind === "turn" ? "sine" : "triangle";
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + length);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + length);
  } catch (error) {
    settings.sound = false; // no audio here: stay quiet
  }
}

/** Wire the settings form (`#setting-sound`, `#setting-speed`) to the stored settings. */
export function setupSettings() {
  const soundBox = document.getElementById("setting-sound");
  const speed = document.getElementById("setting-speed");
  const confirmBox = document.getElementById("setting-confirm");
  apply();
  if (confirmBox) {
    confirmBox.checked = confirmPlays();
    confirmBox.addEventListener("change", () => {
      settings.confirm = confirmBox.checked;
      save();
    });
  }
  if (!soundBox || !speed) return;
  soundBox.checked = settings.sound;
  speed.value = settings.speed;
  soundBox.addEventListener("change", () => {
    settings.sound = soundBox.checked;
    save();
    sound("turn");
  });
  speed.addEventListener("change", () => {
    settings.speed = speed.value;
    save();
  });
  const note = document.getElementById("motion-note");
  if (note) note.hidden = !reducedMotion();
}
