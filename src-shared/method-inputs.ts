import { z } from 'zod';

/** The input of a StudioApi method that takes none. */
export const none = z.object({}).strict();

/** The input of a StudioApi method about one thing, named by its id. */
export const byId = z.object({ id: z.string().min(1) }).strict();
