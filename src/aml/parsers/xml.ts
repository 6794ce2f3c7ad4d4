// Minimal non-validating XML reader for the UN and EU list files: elements, attributes, text, CDATA and the
// predefined/numeric entities. DTDs, comments and processing instructions are skipped. No dependency is
// needed for these regular, publisher-generated documents.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY, (_, body: string) => {
    switch (body) {
      case 'amp': return '&';
      case 'lt': return '<';
      case 'gt': return '>';
      case 'quot': return '"';
      case 'apos': return "'";
      default:
        return String.fromCodePoint(body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10));
    }
  });
}

const ATTRIBUTE = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

/** Parses a document into its root element. Namespace prefixes are dropped from element and attribute names. */
export function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let position = 0;
  const length = text.length;
  while (position < length) {
    const lt = text.indexOf('<', position);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > position) stack[stack.length - 1].text += decodeEntities(text.slice(position, textEnd));
    if (lt === -1) break;
    if (text.startsWith('<!--', lt)) {
      position = endOf(text, '-->', lt);
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt);
      if (end === -1) throw new Error('unterminated CDATA section');
      stack[stack.length - 1].text += text.slice(lt + 9, end);
      position = end + 3;
    } else if (text[lt + 1] === '?' || text[lt + 1] === '!') {
      position = endOf(text, '>', lt);
    } else if (text[lt + 1] === '/') {
      const gt = text.indexOf('>', lt);
      if (gt === -1) throw new Error('unterminated end tag');
      const name = localName(text.slice(lt + 2, gt).trim());
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`mismatched end tag </${name}>`);
      position = gt + 1;
    } else {
      const gt = findTagEnd(text, lt);
      const selfClosing = text[gt - 1] === '/';
      const inner = text.slice(lt + 1, selfClosing ? gt - 1 : gt);
      const nameEnd = inner.search(/[\s]/);
      const name = localName(nameEnd === -1 ? inner : inner.slice(0, nameEnd));
      const attributes: Record<string, string> = {};
      if (nameEnd !== -1) {
        for (const match of inner.slice(nameEnd).matchAll(ATTRIBUTE)) {
          attributes[localName(match[1])] = decodeEntities(match[3] ?? match[4] ?? '');
        }
      }
      const element: XmlElement = { name, attributes, children: [], text: '' };
      stack[stack.length - 1].children.push(element);
      if (!selfClosing) stack.push(element);
      position = gt + 1;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed element <${stack[stack.length - 1].name}>`);
  const documentElement = root.children[0];
  if (!documentElement) throw new Error('no document element');
  return documentElement;
}

function endOf(text: string, terminator: string, from: number): number {
  const end = text.indexOf(terminator, from);
  if (end === -1) throw new Error(`unterminated markup at ${from}`);
  return end + terminator.length;
}

function findTagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return i;
    }
  }
  throw new Error('unterminated start tag');
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

export function childText(element: XmlElement, name: string): string {
  const child = element.children.find((c) => c.name === name);
  return child ? child.text.trim() : '';
}

/** Trimmed texts of `<name><VALUE>…</VALUE></name>` style lists (UN format). */
export function childValues(element: XmlElement, name: string): string[] {
  return childrenNamed(element, name)
    .flatMap((child) => childrenNamed(child, 'VALUE'))
    .map((value) => value.text.trim())
    .filter(Boolean);
}
