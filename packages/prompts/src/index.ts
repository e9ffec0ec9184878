// Public API of @nlq/prompts: prompt templates as typed functions and their output schemas (zod only).
