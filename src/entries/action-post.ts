/** The action's post step: always runs, stops what the main step started. */
import { runPost } from '../action/post.js';

await runPost();
