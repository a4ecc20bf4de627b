import { loadRuntime } from './runtime.js';

const TEMPLATE = document.createElement('template');
TEMPLATE.innerHTML = `
  <style>:host{display:inline-block;position:relative}svg{width:100%;height:100%}</style>
  <div part="stage"></div>
`;

export class MotionPlayer extends HTMLElement {
  static get observedAttributes() { return ['src', 'autoplay', 'loop', 'speed']; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).appendChild(TEMPLATE.content.cloneNode(true));
    this._frame = 0;
    this._data = null;
  }

  async connectedCallback() {
    loadRuntime();
    if (this.getAttribute('src')) await this.load(this.getAttribute('src'));
    if (this.hasAttribute('autoplay')) this.play();
  }

  async load(src) {
    const res = await fetch(src);
    this._data = await res.json();
    this.dispatchEvent(new CustomEvent('ready', { detail: { frames: this._data.op || 0 } }));
  }

  play() {
    const speed = Number(this.getAttribute('speed') || 1);
    const tick = () => {
      if (!this._data) return;
      this._frame = (this._frame + speed) % (this._data.op || 60);
      this._raf = requestAnimationFrame(tick);
    };
    this._raf = requestAnimationFrame(tick);
  }

  stop() { cancelAnimationFrame(this._raf); this._frame = 0; }

  attributeChangedCallback(name, _old, val) {
    if (name === 'src' && this.isConnected && val) this.load(val);
  }
}

if (!customElements.get('motion-player')) customElements.define('motion-player', MotionPlayer);
