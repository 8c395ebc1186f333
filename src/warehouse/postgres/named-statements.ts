// Prepared statements on PostgreSQL: a read whose text has been seen before goes as a named
// statement, which each pooled connection parses and plans once (pg keeps the names per
// connection). The names are bounded: past that many texts, new ones go unnamed.
import crypto from 'node:crypto';

const MOST = 500;

export class NamedStatements {
  private readonly names = new Map<string, string>();

  /** The query config for pg: named once the text repeats, and while fewer than MOST are named. */
  of(text: string, values: unknown[]): { text: string; values: unknown[]; name?: string } {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MOST && /^\s*(SELECT|WITH)\b/i.test(text)) {
      name = `insights_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name ? { text, values, name } : { text, values };
  }
}
