// Name parts that are common among people at large, whatever their rarity on the sanctions lists. The lists are
// a skewed sample: "Wilson", "Johnson" or "Popov" are rare there and so look distinctive by list rarity alone, yet
// they are among the most frequent family names of their countries, so a match made of such parts says little.
// Written for kyx from general knowledge of national name-frequency rankings (the most frequent family names and
// given names of each language or region, a few dozen each, in their usual Latin spellings); no list file,
// benchmark or other dataset was copied. Each entry is one name part as `tokenise` gives it. Other spellings of a
// part of four letters or more are met through the transliteration key (see matching.ts); shorter ones are listed
// in each spelling that matters. Hafiz (an honorific as much as a name), Yunus and Harbi are left out although
// frequent: they are written in listed aliases ("Hafiz Saeed", "YUNUS, Muhammad", "Abu Abdalla al-Harbi") that the
// press meets in another romanisation, which a match of common names only would no longer survive (round 17).

const COMMON_FAMILY_NAMES = [
  // English-speaking countries
  'smith', 'johnson', 'williams', 'brown', 'jones', 'miller', 'davis', 'wilson', 'anderson', 'taylor', 'thomas', 'moore',
  'jackson', 'martin', 'thompson', 'white', 'harris', 'clark', 'lewis', 'robinson', 'walker', 'young', 'allen', 'king',
  'wright', 'scott', 'hill', 'green', 'adams', 'nelson', 'baker', 'hall', 'campbell', 'mitchell', 'carter', 'roberts',
  'evans', 'turner', 'phillips', 'parker', 'collins', 'edwards', 'stewart', 'morris', 'murphy', 'cook', 'rogers',
  'morgan', 'cooper', 'peterson', 'reed', 'bailey', 'bell', 'kelly', 'howard', 'ward', 'cox', 'richardson', 'wood',
  'watson', 'brooks', 'bennett', 'gray', 'james', 'hughes', 'price', 'sanders', 'myers', 'long', 'ross', 'foster',
  // Spanish and Portuguese
  'garcia', 'rodriguez', 'martinez', 'hernandez', 'lopez', 'gonzalez', 'perez', 'sanchez', 'ramirez', 'torres',
  'flores', 'rivera', 'gomez', 'diaz', 'reyes', 'morales', 'cruz', 'ortiz', 'gutierrez', 'chavez', 'ramos', 'ruiz',
  'alvarez', 'mendoza', 'vasquez', 'castillo', 'jimenez', 'moreno', 'romero', 'herrera', 'medina', 'aguilar', 'vargas',
  'castro', 'fernandez', 'munoz', 'silva', 'santos', 'oliveira', 'souza', 'costa', 'pereira', 'rodrigues', 'almeida',
  'ferreira', 'carvalho', 'gomes', 'martins', 'ribeiro', 'alves', 'lima', 'araujo',
  'vega', 'nunez', 'rojas', 'soto', 'contreras', 'sandoval', 'guerrero', 'ortega', 'delgado', 'cortes', 'dominguez',
  'vazquez', 'navarro', 'molina', 'serrano', 'blanco', 'suarez', 'salazar', 'espinoza', 'fuentes', 'cabrera', 'campos',
  'leon', 'rios', 'mejia', 'acosta', 'marin', 'valencia', 'figueroa', 'quintero', 'restrepo', 'zapata', 'montoya',
  // French, German, Italian, Dutch
  'bernard', 'dubois', 'durand', 'petit', 'leroy', 'moreau', 'simon', 'laurent', 'lefebvre', 'michel', 'david',
  'bertrand', 'roux', 'vincent', 'fournier', 'girard', 'mueller', 'muller', 'schmidt', 'schneider', 'fischer',
  'weber', 'meyer', 'wagner', 'becker', 'schulz', 'hoffmann', 'koch', 'richter', 'klein', 'wolf', 'neumann',
  'schwarz', 'zimmermann', 'rossi', 'russo', 'ferrari', 'esposito', 'bianchi', 'romano', 'colombo', 'ricci', 'marino',
  'greco', 'bruno', 'gallo', 'conti', 'jansen', 'visser', 'bakker', 'janssen',
  'bauer', 'lange', 'krause', 'dupont', 'lambert', 'mercier', 'rousseau', 'fontaine', 'lombardi', 'moretti', 'barbieri',
  'fontana', 'rizzo', 'caruso',
  // Russian, Ukrainian, Belarusian, Polish
  'ivanov', 'smirnov', 'kuznetsov', 'popov', 'vasilyev', 'petrov', 'sokolov', 'mikhailov', 'novikov', 'fedorov',
  'morozov', 'volkov', 'alekseyev', 'lebedev', 'semenov', 'yegorov', 'pavlov', 'kozlov', 'stepanov', 'nikolayev',
  'orlov', 'andreyev', 'makarov', 'nikitin', 'zakharov', 'zaitsev', 'solovyov', 'borisov', 'romanov', 'vorobyov',
  'belov', 'bogdanov', 'kovalenko', 'bondarenko', 'tkachenko', 'shevchenko', 'kravchenko', 'boyko', 'melnyk',
  'koval', 'nowak', 'kowalski', 'wisniewski', 'wojcik', 'kowalczyk', 'kaminski', 'lewandowski', 'zielinski',
  'kuzmin', 'gusev', 'titov', 'kiselev', 'frolov', 'tarasov', 'zhukov', 'komarov', 'medvedev', 'belyaev', 'gromov',
  'vinogradov', 'grigoryev', 'afanasyev', 'osipov', 'sidorov', 'fomin', 'markov', 'lazarev', 'savchenko', 'lysenko',
  'marchenko', 'rudenko', 'moroz', 'polishchuk', 'kovalchuk', 'oliynyk', 'shevchuk', 'novik', 'zhuk',
  // Caucasus and Central Asia
  'aliyev', 'mammadov', 'huseynov', 'hasanov', 'guliyev', 'ismayilov', 'gadzhiyev', 'magomedov', 'karimov', 'rakhimov',
  'yusupov', 'nazarov', 'ismailov', 'petrosyan', 'grigoryan', 'hakobyan', 'beridze', 'kapanadze',
  // Balkan
  'petrovic', 'jovanovic', 'nikolic', 'markovic', 'djordjevic', 'stojanovic', 'ilic', 'pavlovic', 'popovic', 'horvat',
  'kovacevic', 'babic', 'hodzic', 'krasniqi', 'gashi', 'berisha', 'hoxha', 'dimitrov', 'georgiev', 'todorov',
  // Turkish
  'yilmaz', 'kaya', 'demir', 'sahin', 'celik', 'yildiz', 'yildirim', 'ozturk', 'aydin', 'ozdemir', 'arslan', 'dogan',
  'kilic', 'aslan', 'cetin', 'kara', 'koc', 'kurt', 'ozkan', 'simsek',
  // Persian
  'mohammadi', 'hosseini', 'ahmadi', 'rezaei', 'moradi', 'karimi', 'jafari', 'rahimi', 'hashemi', 'mousavi',
  'ebrahimi', 'hosseinzadeh', 'sadeghi', 'ghasemi', 'heidari', 'rostami', 'akbari', 'kazemi', 'nazari', 'amini',
  'bagheri', 'abbasi', 'mirzaei', 'soltani', 'asadi', 'zamani', 'ghorbani', 'salehi', 'khosravi', 'bahrami',
  // Arabic
  'abbas', 'hamdan', 'haddad', 'khoury', 'mansour', 'saad', 'jaber', 'qasim', 'khalil', 'salem', 'saleh', 'nasser',
  'masri', 'khatib', 'tamimi', 'shammari', 'otaibi', 'qahtani', 'ghamdi', 'mutairi', 'dosari', 'zahrani',
  'obaidi', 'jubouri', 'dulaimi', 'hashimi', 'alaoui', 'idrissi', 'mansouri', 'benali', 'trabelsi', 'hamidi',
  // South Asian
  'kumar', 'singh', 'sharma', 'patel', 'gupta', 'verma', 'reddy', 'shah', 'khan', 'das', 'rao', 'yadav', 'jain',
  'mehta', 'joshi', 'iyer', 'nair', 'pillai', 'chaudhry', 'malik', 'qureshi', 'siddiqui', 'sheikh', 'butt', 'akhtar',
  'afridi', 'yousafzai', 'niazi', 'durrani', 'kakar', 'mohmand', 'shinwari', 'ahmadzai', 'awan', 'bhatti', 'rana',
  'mirza', 'baig', 'ansari', 'javed', 'anwar', 'mahmood', 'chowdhury', 'miah', 'mia',
  'hussain', 'iqbal', 'rahman', 'islam', 'hossain', 'begum', 'akter', 'ahmed',
  // East and South-East Asian
  'wang', 'li', 'zhang', 'liu', 'chen', 'yang', 'huang', 'zhao', 'wu', 'zhou', 'xu', 'sun', 'ma', 'zhu', 'hu', 'guo',
  'he', 'lin', 'luo', 'gao', 'zheng', 'liang', 'xie', 'tang', 'han', 'cao', 'kim', 'lee', 'park', 'choi', 'jung',
  'kang', 'cho', 'yoon', 'jang', 'lim', 'nguyen', 'tran', 'le', 'pham', 'hoang', 'phan', 'vu', 'dang', 'bui', 'do',
  'ho', 'ngo', 'duong', 'sato', 'suzuki', 'takahashi', 'tanaka', 'watanabe', 'ito', 'yamamoto', 'nakamura',
  'kobayashi', 'kato', 'santoso', 'wijaya', 'reyes', 'bautista',
  'cheng', 'su', 'song', 'xiao', 'feng', 'deng', 'ye', 'lu', 'pan', 'du', 'dai', 'xia', 'zhong', 'tian', 'ren', 'jiang',
  'fan', 'fang', 'shi', 'yao', 'tan', 'jin', 'yu', 'yuan', 'dong', 'peng', 'zeng', 'xue', 'shen', 'ding', 'wei',
  'chan', 'wong', 'cheung', 'lau', 'leung', 'chang', 'tsai', 'hsu', 'shin', 'seo', 'kwon', 'hwang', 'ahn', 'jeon',
  'hong', 'yoo', 'ko', 'moon', 'son', 'bae', 'baek', 'nam', 'oh', 'jeong', 'chung', 'yi', 'ri',
  // African
  'mohamed', 'ali', 'musa', 'ibrahim', 'abubakar', 'okafor', 'okonkwo', 'adeyemi', 'mensah', 'otieno', 'mwangi',
  'kamau', 'dlamini', 'nkosi', 'ndlovu', 'banda', 'phiri', 'diallo', 'traore', 'coulibaly', 'keita', 'toure',
  'diop', 'ndiaye', 'sow', 'bah', 'barry', 'camara', 'sylla', 'kone', 'ouedraogo', 'sawadogo', 'fall', 'bello', 'garba',
  'yusuf', 'lawal', 'eze', 'obi', 'nwosu', 'adebayo', 'boateng', 'owusu', 'asante', 'osei',
];

const COMMON_GIVEN_NAMES = [
  // English-speaking countries (their short forms are met through given-names.ts)
  'james', 'john', 'robert', 'michael', 'william', 'david', 'richard', 'joseph', 'thomas', 'charles', 'christopher',
  'daniel', 'matthew', 'anthony', 'mark', 'donald', 'steven', 'paul', 'andrew', 'joshua', 'kenneth', 'kevin', 'brian',
  'george', 'timothy', 'ronald', 'edward', 'jason', 'jeffrey', 'ryan', 'jacob', 'gary', 'nicholas', 'eric',
  'jonathan', 'stephen', 'larry', 'justin', 'scott', 'peter', 'mary', 'patricia', 'jennifer', 'linda', 'elizabeth',
  'barbara', 'susan', 'jessica', 'sarah', 'karen', 'nancy', 'lisa', 'margaret', 'betty', 'sandra', 'ashley',
  'emily', 'michelle', 'laura', 'anna', 'emma',
  // Spanish, Portuguese, French, German, Italian
  'jose', 'juan', 'luis', 'carlos', 'jorge', 'manuel', 'antonio', 'francisco', 'pedro', 'miguel', 'jesus', 'javier',
  'fernando', 'ricardo', 'alejandro', 'roberto', 'rafael', 'mario', 'sergio', 'diego', 'pablo', 'alberto', 'eduardo',
  'maria', 'ana', 'rosa', 'carmen', 'guadalupe', 'isabel', 'lucia', 'paulo', 'joao', 'marcos', 'jean', 'pierre',
  'nicolas', 'philippe', 'alain', 'marie', 'sophie', 'hans', 'thomas', 'klaus', 'stefan', 'andreas', 'wolfgang',
  'giuseppe', 'giovanni', 'marco', 'luca', 'francesco', 'alessandro', 'andrea',
  'andres', 'felipe', 'gustavo', 'hector', 'raul', 'oscar', 'ruben', 'victor', 'enrique', 'arturo', 'ramon', 'ernesto',
  'gabriela', 'daniela', 'mariana', 'valentina', 'sofia', 'alejandra', 'adriana', 'claudia', 'veronica', 'monica',
  // Russian, Ukrainian, Polish (other forms through given-names.ts)
  'alexander', 'sergey', 'dmitry', 'andrei', 'alexey', 'vladimir', 'nikolai', 'mikhail', 'ivan', 'yury', 'igor',
  'viktor', 'oleg', 'pavel', 'yevgeny', 'maxim', 'anatoly', 'valery', 'konstantin', 'roman', 'artyom', 'denis',
  'yelena', 'olga', 'tatyana', 'natalya', 'irina', 'svetlana', 'anna', 'marina', 'yekaterina', 'piotr', 'krzysztof',
  'tomasz', 'pawel', 'jan',
  'vasily', 'ruslan', 'yulia', 'natalia', 'nikita', 'artem', 'kirill', 'ilya', 'anton', 'boris', 'grigory', 'leonid',
  'gennady', 'vitaly', 'stanislav', 'vadim', 'vyacheslav', 'timur', 'rustam', 'fyodor', 'galina', 'lyudmila',
  'nadezhda', 'oksana', 'larisa', 'lyubov', 'vera', 'nina', 'daria', 'anastasia', 'polina', 'oleksandr', 'volodymyr',
  'serhiy', 'andriy', 'dmytro', 'mykola', 'vasyl', 'taras', 'bohdan', 'aliaksandr', 'siarhei',
  // Arabic, Persian, Turkish, South Asian
  'muhammad', 'mohammed', 'ahmed', 'ali', 'mahmoud', 'hassan', 'hussein', 'ibrahim', 'mustafa', 'abdullah', 'omar',
  'khalid', 'yusuf', 'youssef', 'said', 'saleh', 'salah', 'abdul', 'abdel', 'rahman', 'aziz', 'karim', 'hamid',
  'hamza', 'tariq', 'walid', 'samir', 'adel', 'nasser', 'sami', 'ismail', 'yasser', 'khaled', 'fatima', 'aisha',
  'mariam', 'zainab', 'layla', 'nour', 'reza', 'hossein', 'mehdi', 'mohsen', 'amir', 'fatemeh', 'zahra',
  'mehmet', 'ahmet', 'huseyin', 'emine', 'fatma', 'ayse', 'usman', 'imran', 'bilal', 'asif', 'raza', 'syed',
  'faisal', 'kamran', 'naveed', 'shahid', 'nadeem', 'arif', 'rizwan', 'tanvir', 'rafiq', 'jahangir', 'shafiq',
  'rajesh', 'sunil', 'amit', 'anil', 'ramesh', 'suresh', 'priya', 'ravi', 'vijay', 'sanjay',
  'abbas', 'jamal', 'jamil', 'rahim', 'fazal', 'sulaiman', 'jasim', 'rashid', 'majid', 'salim', 'hamad', 'saad',
  'fahad', 'sultan', 'nabil', 'anwar', 'yasin', 'ayman', 'osama', 'hisham', 'bassam', 'ziad', 'mazen', 'rami', 'fadi',
  'marwan', 'haider', 'qasim', 'kazem', 'mahdi', 'javad', 'hadi', 'farid', 'habib', 'ghulam', 'noor', 'zaman', 'wali',
  'nasir', 'jafar', 'idris', 'harun', 'issa', 'isa', 'zakaria', 'yahya', 'ilyas', 'zaid', 'badr', 'mansour',
  'khalil', 'amin', 'amina', 'khadija', 'maryam', 'hana', 'hala', 'hanan', 'huda', 'noura', 'reem', 'salma', 'samira',
  'leila', 'rania', 'nadia', 'asma', 'amal', 'iman', 'yasmin', 'emre', 'murat', 'hakan', 'kemal', 'osman',
  // East and South-East Asian, African
  'wei', 'jing', 'min', 'li', 'hui', 'yan', 'jun', 'lei', 'ying', 'fang', 'van', 'thi', 'minh', 'anh', 'duc', 'budi',
  'agus', 'siti', 'nur', 'musa', 'abubakar', 'sani', 'abdi',
];

function normalised(names: string[]): Set<string> {
  return new Set(names.map((name) => name.replace(/\s+/g, '')));
}

export const COMMON_FAMILY = normalised(COMMON_FAMILY_NAMES);
export const COMMON_GIVEN = normalised(COMMON_GIVEN_NAMES);
