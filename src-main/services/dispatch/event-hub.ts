import type { EventPayload, StudioEvent } from '../../../src-shared/studio-api';

type Listener = (event: StudioEvent, payload: unknown) => void;

/** Fans pushed events out to every connected renderer, whichever host carries them. */
export class EventHub {
  private listeners = new Set<Listener>();

  emit<E extends StudioEvent>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener(event, payload);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
